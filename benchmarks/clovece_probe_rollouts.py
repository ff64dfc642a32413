"""Issue 23, third round (an experiment, reverted next): silný scoring each move by K rollouts
of H throws played by its own one-throw choice, paired with the plain level on the same games.

    .venv/bin/python benchmarks/clovece_probe_rollouts.py random GAMES K H
"""
import math, random, sys, time
from multiprocessing import get_context
from companion.engines.clovece.rules import apply, legal_moves, new_game
from companion.players import clovece_strong as S

K, H = int(sys.argv[3]), int(sys.argv[4])

def ply1(pos, roll, w):
    moves = legal_moves(pos, roll)
    if len(moves) <= 1:
        return moves[0] if moves else None
    c = pos.turn
    return max(moves, key=lambda m: S.evaluate(apply(pos, roll, m)[0], c, w) + w.front * m.frm)

def rollout_choose(pos, roll, w, seed):
    moves = legal_moves(pos, roll)
    if len(moves) <= 1:
        return moves[0] if moves else None
    me = pos.turn
    rng = random.Random(seed)
    seqs = [[rng.randint(1, 6) for _ in range(H)] for _ in range(K)]
    best, bv = None, -1e18
    for m in moves:
        tot = 0.0
        start = apply(pos, roll, m)[0]
        for seq in seqs:
            p = start
            for r in seq:
                if p.winner is not None:
                    break
                p = apply(p, r, ply1(p, r, w))[0]
            tot += S.evaluate(p, me, w)
        v = tot / K + w.front * m.frm
        if v > bv:
            best, bv = m, v
    return best

def one(args):
    seed, index, kind, variant = args
    colours = (0, 2)
    me = colours[index % 2]
    w = S.WEIGHTS[2]
    dice = {c: random.Random(seed * 7919 + index * 31 + c).random for c in colours}
    picks = {c: random.Random(seed * 104729 + index * 37 + c).random for c in colours}
    pos = new_game(2); n = 0
    from companion.players import clovece_bot
    while pos.winner is None:
        c = pos.turn
        roll = math.floor(dice[c]() * 6) + 1
        moves = legal_moves(pos, roll)
        move = None
        if len(moves) > 1:
            n += 1
            if c == me:
                move = S.choose(pos, roll) if variant == 'A' else rollout_choose(pos, roll, w, index * 100003 + n)
            elif kind == 'random':
                move = moves[math.floor(picks[c]() * len(moves))]
            else:
                move = clovece_bot.choose(pos, roll)
        pos, _ = apply(pos, roll, move)
    return pos.winner == me

if __name__ == '__main__':
    kind, games = sys.argv[1], int(sys.argv[2])
    t0 = time.time()
    a = [one((1, i, kind, 'A')) for i in range(games)]
    b = [one((1, i, kind, 'B')) for i in range(games)]
    oa = sum(x and not y for x, y in zip(a, b)); ob = sum(y and not x for x, y in zip(a, b))
    z = (ob - oa) / math.sqrt(oa + ob) if oa + ob else 0
    print(f"{kind} {games} K{K} H{H}: A {sum(a)/games:.1%} B {sum(b)/games:.1%} onlyA {oa} onlyB {ob} z {z:+.2f} [{time.time()-t0:.0f}s]")
