"""The paper's GraphLand numbers (P3, P4), quoted from the evaluation reports the authors commit
in their repository, never computed here: yandex-research/graphpfn at commit
a4cf572d6c435c19e92db2331349e8fb1a3f7344 (the reports arrived with 447c442, the initial commit).

Each value is the mean over the report's seeds (10 in every file) of `reports[i].metrics.test.score`
(higher is better; `METRIC` names which test metric the score equals: accuracy, average precision
or R^2), read from `<folder>/<dataset>/evaluation/report.json`. GraphPFN is the `lappe` variant
(the Laplacian-PE structure features our karate panel uses); `None`: the repository commits no
report for that dataset and arm. The paper's tables themselves could not be read (spec §0).
"""
from __future__ import annotations

REPO = "yandex-research/graphpfn"
COMMIT = "a4cf572d6c435c19e92db2331349e8fb1a3f7344"
FOLDERS = {"graphpfn_icl": "exp/graphpfn-eval/icl/lappe",
           "graphpfn_finetune": "exp/graphpfn-eval/finetune/lappe",
           "g2t_fm_finetune": "exp/g2t_limix/finetune",
           "gcn": "exp/gnn/gcn"}
ARMS = tuple(FOLDERS)
# (dataset, metric the score equals, then one mean test score per arm in ARMS order)
SCORES = (
    ("amazon-ratings", "accuracy", 0.4264, 0.4578, 0.4567, 0.4143),
    ("artnet-exp", "ap", 0.4968, 0.5338, 0.4988, 0.4486),
    ("artnet-views", "r2", 0.6031, 0.6439, 0.6212, 0.5603),
    ("avazu-ctr", "r2", 0.2333, None, 0.3394, 0.32),
    ("city-reviews", "ap", 0.7973, None, 0.8013, 0.7781),
    ("city-roads-M", "r2", 0.5861, 0.6409, 0.6587, 0.5882),
    ("facebook", "accuracy", 0.9145, 0.9297, 0.9216, 0.9126),
    ("hm-prices", "r2", 0.6856, 0.7858, 0.7632, 0.6802),
    ("pubmed", "accuracy", 0.8941, None, 0.8991, 0.8546),
    ("questions", "ap", 0.0962, 0.182, 0.2019, 0.1542),
    ("tolokers-2", "ap", 0.6118, 0.6183, 0.6117, 0.5627),
    ("twitch-views", "r2", 0.6366, None, 0.7316, 0.7551),
    ("wiki-cs", "accuracy", 0.7913, 0.8215, 0.8224, 0.8174),
)


def report_path(arm: str, dataset: str) -> str:
    """The committed file a quoted value comes from."""
    return f"{FOLDERS[arm]}/{dataset}/evaluation/report.json"


def rows() -> list[dict]:
    """One row per dataset: metric, each arm's mean test score and the file it comes from."""
    out = []
    for ds, metric, *scores in SCORES:
        row = {"dataset": ds, "metric": metric}
        for arm, s in zip(ARMS, scores):
            row[arm] = s
            row[f"{arm}_file"] = report_path(arm, ds) if s is not None else ""
        out.append(row)
    return out


def finetuned_wins(table) -> bool:
    """P4 on the quoted numbers: over the datasets with a finetuned GraphPFN report, GraphPFN
    finetuned beats both G2T-FM finetuned and the GCN from scratch on more than half
    ("on most datasets"). `table`: rows (graphpfn_finetune, g2t_fm_finetune, gcn)."""
    wins = [g > max(t, c) for g, t, c in table]
    return 2 * sum(wins) > len(wins)
