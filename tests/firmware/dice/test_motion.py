"""dice.motion: at rest -> shaken -> settled is one roll; a long free fall is a drop."""

from dice import motion, shims

REST = (0, 0, 1000)  # lying on the table: 1 g on z


def feed(tracker, start, ms, sample, step=10):
    """Feed ``sample`` (a tuple, or a function of the index) every ``step`` ms; return (end, events)."""
    events = []
    now = start
    for index in range(ms // step):
        x, y, z = sample(index) if callable(sample) else sample
        events.extend(tracker.update(now, x, y, z))
        now = shims.ticks_add(now, step)
    return now, events


def shake(index):
    # a die rattled in a cupped hand: 2.5 g one way, then the other
    return (2500, -300, 800) if index % 2 else (-1800, 600, -900)


def test_resting_dice_never_rolls():
    tracker = motion.MotionTracker()
    _, events = feed(tracker, 0, 5000, REST)
    assert events == []
    assert tracker.state == motion.REST


def test_shake_then_settle_is_exactly_one_roll():
    tracker = motion.MotionTracker()
    now, events = feed(tracker, 0, 500, REST)
    now, events = feed(tracker, now, 300, shake)
    assert events == [] and tracker.state == motion.SHAKEN
    now, events = feed(tracker, now, 390, REST)
    assert events == []  # not settled yet
    now, events = feed(tracker, now, 2000, REST)
    assert events == [(motion.ROLL,)]
    assert tracker.state == motion.REST and tracker.rolls == 1


def test_two_throws_two_rolls():
    tracker = motion.MotionTracker()
    now, events = feed(tracker, 0, 300, shake)
    now, more = feed(tracker, now, 1000, REST)
    events += more
    now, more = feed(tracker, now, 300, shake)
    events += more
    now, more = feed(tracker, now, 1000, REST)
    events += more
    assert events == [(motion.ROLL,), (motion.ROLL,)]


def test_a_bump_on_the_table_is_not_a_roll():
    tracker = motion.MotionTracker()
    now, events = feed(tracker, 0, 500, REST)
    now, more = feed(tracker, now, 40, (300, 200, 2600))  # a knock: 40 ms of jolt
    events += more
    now, more = feed(tracker, now, 3000, REST)
    assert events + more == []


def test_turning_the_die_in_the_hand_counts_as_shaking():
    # |a| stays 1 g but the axes swap every sample
    faces = ((1000, 0, 0), (0, 1000, 0), (0, 0, 1000), (-1000, 0, 0))
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, lambda i: faces[i % 4])
    assert tracker.state == motion.SHAKEN
    _, events = feed(tracker, now, 600, (0, -1000, 0))
    assert events == [(motion.ROLL,)]


def test_wobbling_die_is_not_settled():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, shake)
    # rocking on an edge: small swings above the still threshold, never 400 ms quiet
    now, events = feed(tracker, now, 2000, lambda i: (0, 0, 1000) if i % 20 else (0, 300, 900))
    assert events == [] and tracker.state == motion.SHAKEN
    _, events = feed(tracker, now, 500, REST)
    assert events == [(motion.ROLL,)]


def test_shaking_for_long_is_still_one_roll():
    tracker = motion.MotionTracker()
    now, events = feed(tracker, 0, 20000, shake)
    assert events == [] and tracker.state == motion.SHAKEN
    _, events = feed(tracker, now, 1000, REST)
    assert events == [(motion.ROLL,)]


def test_long_free_fall_is_a_drop_with_its_duration():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 200, REST)
    now, events = feed(tracker, now, 400, (20, -30, 50))  # off the table: 400 ms weightless
    assert events == []  # reported when it lands
    now, events = feed(tracker, now, 10, (400, 3000, -2000))  # the floor
    assert events == [(motion.DROP, 400)]
    assert tracker.drops == 1


def test_a_throw_onto_the_table_is_not_a_drop():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, shake)
    now, events = feed(tracker, now, 200, (0, 0, 80))  # 200 ms of flight: a normal throw
    now, more = feed(tracker, now, 30, (900, 2500, 1500))
    events += more
    now, more = feed(tracker, now, 1000, REST)
    events += more
    assert events == [(motion.ROLL,)]


def test_dropped_while_thrown_reports_drop_then_roll():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, shake)
    now, events = feed(tracker, now, 350, (0, 0, 0))
    now, more = feed(tracker, now, 50, shake)
    events += more
    now, more = feed(tracker, now, 1000, REST)
    events += more
    assert events == [(motion.DROP, 350), (motion.ROLL,)]


def test_the_clock_may_wrap_around():
    start = shims.TICKS_PERIOD - 450  # ticks wrap in the middle of the settling
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, start, 300, shake)
    _, events = feed(tracker, now, 1000, REST)
    assert events == [(motion.ROLL,)]


def test_thresholds_come_from_the_constructor():
    tracker = motion.MotionTracker(drop_ms=100)
    now, _ = feed(tracker, 0, 150, (0, 0, 0))
    _, events = feed(tracker, now, 10, REST)
    assert events == [(motion.DROP, 150)]
