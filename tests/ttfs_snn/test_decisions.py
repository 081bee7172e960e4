"""lib/ttfs_snn/decisions.py: each rule on hand-built numbers, both ways."""


from lib.companion import rules
from lib.ttfs_snn import decisions as d


def test_gaussian_agreement_factor():
    assert d.gaussian_agrees(0.05, 0.1) and d.gaussian_agrees(0.24, 0.1)
    assert not d.gaussian_agrees(0.03, 0.1) and not d.gaussian_agrees(0.26, 0.1)
    assert d.gaussian_agrees(0.0, 0.0) and not d.gaussian_agrees(0.01, 0.0)
    assert d.gaussian_applies(0.05) and d.gaussian_applies(0.0129) \
        and not d.gaussian_applies(0.009) and not d.gaussian_applies(0.05, False)


def test_balanced():
    assert d.balanced([0.4, 0.5, 0.65]) and not d.balanced([0.5, 0.39]) \
        and not d.balanced([0.66])


def test_losses():
    assert d.sgd_learns(2.25) and not d.sgd_learns(2.26)
    margin = d.NOT_WORSE_MARGIN
    assert rules.not_worse(1.05, 1.0, margin) and not rules.not_worse(1.06, 1.0, margin)


def test_latency_rules():
    assert not d.earlier_by_margin([5.5, 5.5], [6.0, 6.2])          # 0.6 steps earlier only
    assert d.earlier_by_margin([5.0, 5.2], [6.0, 6.2])               # 1.0 steps earlier
    assert d.earlier_every_seed([1, 2], [2, 3]) and not d.earlier_every_seed([1, 3], [2, 3])
    assert not d.earlier_every_seed([], [])
    assert d.earlier_on_mean([3.0], [3.1]) and not d.earlier_on_mean([3.0], [3.0])
    assert d.not_later([4, 6], [5, 5]) and not d.not_later([6], [5])


def test_accuracy_rules():
    assert d.no_accuracy_cost([0.8, 0.7], [0.75]) and not d.no_accuracy_cost([0.7], [0.71])
    assert d.tie_break_helps([0.5, 0.6], [0.5, 0.55]) and not d.tie_break_helps([0.5], [0.51])
    assert d.avg_not_worse_than_max(0.6, 0.6) and not d.avg_not_worse_than_max(0.5, 0.6)
    assert d.trained([0.2, 0.9]) and not d.trained([0.19, 0.9])
    assert d.miniature_accuracy(0.70) and not d.miniature_accuracy(0.69)
    assert d.near_paper(0.924) and not d.near_paper(0.92)
    assert d.full_epoch(79) and not d.full_epoch(78)
