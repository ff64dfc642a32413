"""dice.motion against simulated throws and drops (tests/firmware/dice/traces.py): a seeded
set of sessions, each one die with its own sensor flaws, throws onto the table from 10 to
60 cm and drops from a 75 cm table in turn."""

from dice import motion

from tests.firmware.dice import traces

SESSIONS = 20
PLAN = "tdtdtd"  # three throws and three drops a session: 60 and 60 in all


def judged():
    for seed in range(SESSIONS):
        samples, segments = traces.session(seed, PLAN)
        tracker = motion.MotionTracker()
        for event, detail, events, landings in traces.judge(tracker, samples, segments):
            yield seed, event, detail, events, landings


def test_no_throw_is_a_drop_and_no_drop_is_missed():
    throws = drops = false_drops = missed = 0
    for seed, event, detail, events, _landings in judged():
        kinds = [e[0] for e in events]
        if event == "t":
            throws += 1
            if motion.DROP in kinds:
                false_drops += 1
            assert kinds and kinds[-1] == motion.ROLL, (seed, detail, events)
        else:
            drops += 1
            if motion.DROP not in kinds:
                missed += 1
    assert (throws, drops) == (60, 60)
    assert (false_drops, missed) == (0, 0)
