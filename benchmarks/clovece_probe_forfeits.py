"""Issue 23, third round (an experiment, reverted next): captures, throws and throws without a
legal move of silný against a random player or normální (wins and losses apart).

    .venv/bin/python benchmarks/clovece_probe_forfeits.py random|normal GAMES {}
"""
import math, random, sys
from companion.engines.clovece.rules import apply, legal_moves, new_game
from companion.players import clovece_strong, clovece_bot
opp_kind = sys.argv[1]
import json, dataclasses
W = dataclasses.replace(clovece_strong.WEIGHTS[2], **json.loads(sys.argv[3]))
N = int(sys.argv[2])
res = []
for i in range(N):
    me = (0, 2)[i % 2]
    dice = {c: random.Random(7919 * 3 + i * 31 + c).random for c in (0, 2)}
    picks = random.Random(i)
    pos = new_game(2)
    caps = {0: 0, 2: 0}; rolls = {0: 0, 2: 0}; stuckturns = {0: 0, 2: 0}; forf = {0: 0, 2: 0}
    while pos.winner is None:
        c = pos.turn
        roll = math.floor(dice[c]() * 6) + 1
        rolls[c] += 1
        moves = legal_moves(pos, roll)
        move = None
        if len(moves) > 1:
            if c == me:
                move = clovece_strong.choose(pos, roll, W)
            elif opp_kind == 'random':
                move = moves[math.floor(picks.random() * len(moves))]
            else:
                move = clovece_bot.choose(pos, roll)
        if moves == []:
            from companion.engines.clovece.rules import in_play
            if in_play(pos): stuckturns[c] += 1
            else: forf[c] += 1
        if (move or (moves[0] if moves else None)) and (move or moves[0]).capture is not None:
            caps[c] += 1
        pos, _ = apply(pos, roll, move)
    o = 2 - me
    res.append((pos.winner == me, caps[me], caps[o], rolls[me], rolls[o], stuckturns[me], stuckturns[o], forf[me], forf[o]))
wins = sum(r[0] for r in res)
print('win', wins / N)
for cond, name in ((lambda r: True, 'all'), (lambda r: r[0], 'won'), (lambda r: not r[0], 'lost')):
    sel = [r for r in res if cond(r)]
    n = len(sel)
    print(name, n, 'mycaps %.2f oppcaps %.2f myrolls %.0f opprolls %.0f mystuck %.1f oppstuck %.1f noplay %.1f oppnoplay %.1f' % tuple(sum(r[k] for r in sel) / n for k in range(1, 9)))
lost0 = [r for r in res if not r[0] and r[2] == 0]
print('lost with opp 0 caps', len(lost0), 'of', N, ' games with opp 0 caps', sum(1 for r in res if r[2] == 0))
