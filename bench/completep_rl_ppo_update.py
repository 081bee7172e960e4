"""Benchmark: one ensemble PPO update (`ppo.update`: GAE, then epochs x minibatches steps of
the batched actor and critic with the per-member-LR Adam) against `naive.ppo_update_one` run
member by member (GAE env by env, the loss sample by sample, torch.optim.Adam), as a cost curve
over the number of ensemble members.

    python bench/completep_rl_ppo_update.py [--members 2 4 8 16] [--width 32] [--envs 4]

Both sides must end at the same weights (absolute 1e-10, float64) before anything is timed.
Writes results/bench/completep_rl_ppo_update.json.

Bound (d_in = 4, depth L, width N, E members, B samples, two networks, float64, one thread): a
forward pass over B samples is 2 E B (4 N + L N^2 + N) flops, and each of the epochs x
minibatches steps runs forward and backward (three forward-sized passes) on B / minibatches
samples for each network, plus the Adam update's ~10 flops per parameter.
"""
import argparse
from typing import Callable

import torch

from lib.companion import benchmark
from lib.completep_rl import envs, naive, param, ppo

DEPTH, LRS = 2, (1e-3, 1e-2, 1e-1)
BOUND = ("per step, two networks x 3 x 2 E (B / minibatches) (4 N + L N^2 + N) flops, plus "
         "10 E (4 N + L N^2 + 2 N) for Adam; float64, against one thread's GEMM rate")


def bound(width: int, proto: ppo.Protocol) -> Callable[[int, str], benchmark.Bound]:
    """The work of one update of either side with `members` members."""
    def work(members: int, side: str) -> benchmark.Bound:
        per = 4 * width + DEPTH * width * width
        mb = proto.n_envs * proto.steps // proto.minibatches
        step = 2 * (3 * 2 * members * mb * (per + width) + 10 * members * (per + 2 * width))
        return benchmark.Bound(flops=proto.epochs * proto.minibatches * step)
    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--members", type=int, nargs="+", default=[2, 4, 8, 16])
    parser.add_argument("--width", type=int, default=32)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--steps", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=4.0, help="seconds per run before a side "
                        "stops")
    args = parser.parse_args()
    torch.set_num_threads(1)
    proto = ppo.Protocol(n_envs=args.envs, steps=args.steps, max_steps=args.steps // 2)

    def prepare(size: int) -> dict[str, benchmark.Run]:
        group = [ppo.Member(param.PARAMS[i % 2], LRS[i % 3], i // 2) for i in range(size)]
        nets = [ppo.build(group, args.width, DEPTH, 0, s, "adam_fixed_lr", torch.float64)
                for s in (0, 1)]
        start = [{k: w.detach().clone() for k, w in n.weights.items()} for n in nets]
        gen = torch.Generator().manual_seed(0)
        seed_of = torch.tensor([m.seed for m in group])
        carts = envs.CartPoles(seed_of, 1 + size // 2, args.envs, proto.max_steps, gen,
                               torch.float64)
        batch, _, _ = ppo.rollout(*nets, carts, args.steps, gen)
        orders = ppo.draw_orders(1 + size // 2, args.envs * args.steps, proto.epochs, seed_of,
                                 gen)

        def batched() -> list[torch.Tensor]:
            for net, w0 in zip(nets, start):
                for k, w in net.weights.items():
                    w.data.copy_(w0[k])
            lr = torch.tensor([m.lr for m in group], dtype=torch.float64)
            ppo.update(*nets, tuple(ppo.optimizer(n, lr, 1e-8) for n in nets), batch, orders,
                       proto)
            return [net.weights[k].detach().clone() for net in nets for k in param.TENSORS]

        def loop() -> list[torch.Tensor]:
            outs = []
            for e, m in enumerate(group):
                one = [{k: w0[k][e].clone().requires_grad_() for k in w0} for w0 in start]
                naive.ppo_update_one(*one, param.table(m.arm, args.width, DEPTH, 4),
                                     batch.obs[e], batch.action[e], batch.logp[e],
                                     batch.done[e], batch.value[e], orders[:, e], m.lr, 1e-8,
                                     proto)
                outs.append([w[k].detach() for w in one for k in param.TENSORS])
            return [torch.stack(t) for t in zip(*outs)]
        return {"loop": loop, "batched": batched}

    def agree(a: list, b: list) -> bool:
        return all((x - y).abs().max() <= 1e-10 for x, y in zip(a, b))

    curve = benchmark.curve("members", args.members, prepare, agree, repeats=args.repeats,
                            cap_s=args.cap, bound=bound(args.width, proto), label="ppo_update")
    benchmark.write_curves("completep_rl_ppo_update", "completep_rl one PPO update: member by "
                           "member, sample by sample with torch.optim.Adam vs the batched "
                           "ensemble", BOUND, {"ppo_update": curve}, width=args.width,
                           envs=args.envs, steps=args.steps, depth=DEPTH)


if __name__ == "__main__":
    main()
