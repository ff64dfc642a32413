import math, random, sys, collections
from companion.engines.clovece.rules import apply, legal_moves, new_game, in_play
from companion.players import clovece_strong
cnt = collections.Counter(); cnto = collections.Counter()
for i in range(300):
    me = (0, 2)[i % 2]
    dice = {c: random.Random(7919 * 3 + i * 31 + c).random for c in (0, 2)}
    picks = random.Random(i)
    pos = new_game(2)
    while pos.winner is None:
        c = pos.turn
        roll = math.floor(dice[c]() * 6) + 1
        moves = legal_moves(pos, roll)
        move = None
        if len(moves) > 1:
            move = clovece_strong.choose(pos, roll) if c == me else moves[math.floor(picks.random() * len(moves))]
        if not moves and in_play(pos):
            key = tuple(sorted(pos.pieces[c]))
            (cnt if c == me else cnto)[key] += 1
        pos, _ = apply(pos, roll, move)
print(sum(cnt.values()), cnt.most_common(25))
print(sum(cnto.values()), cnto.most_common(15))
