"""dice.motion: at rest -> shaken -> settled is one roll; a fall is a drop when it is longer
than where it began allows; the offsets are learnt at rest."""

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


def test_a_fall_off_the_table_is_a_drop_with_its_duration():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 600, REST)  # lying on the table
    now, events = feed(tracker, now, 390, (20, -30, 50))  # off the edge: 75 cm, 390 ms
    assert events == []  # reported when it lands
    now, events = feed(tracker, now, 10, (400, 3000, -2000))  # the floor
    assert events == [(motion.DROP, 390)]
    assert tracker.drops == 1 and tracker.landing == (390, 150)


def test_a_throw_onto_the_table_is_not_a_drop():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, shake)
    now, events = feed(tracker, now, 200, (0, 0, 80))  # 200 ms of flight: a normal throw
    now, more = feed(tracker, now, 30, (900, 2500, 1500))
    events += more
    now, more = feed(tracker, now, 1000, REST)
    events += more
    assert events == [(motion.ROLL,)]


def test_a_high_toss_from_the_hand_is_not_a_drop():
    # released 5 cm above the table, up to 60 cm and down: 335 + 350 ms of free fall
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, shake)
    now, events = feed(tracker, now, 690, (0, 0, 30))
    now, more = feed(tracker, now, 10, (900, 2500, 16000))
    now, more2 = feed(tracker, now, 1000, REST)
    assert events + more + more2 == [(motion.ROLL,)]
    assert tracker.landing == (690, 800)


def test_a_toss_longer_than_any_toss_onto_the_table_is_a_drop():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, shake)
    now, _ = feed(tracker, now, 850, (0, 0, 30))  # past the table's edge and down to the floor
    _, events = feed(tracker, now, 10, (900, 2500, 16000))
    assert events == [(motion.DROP, 850)]


def test_a_bounce_is_judged_by_the_fall_before_it():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, shake)
    now, _ = feed(tracker, now, 500, (0, 0, 30))  # the toss
    now, _ = feed(tracker, now, 10, (0, 0, 9000))  # lands
    now, events = feed(tracker, now, 400, (0, 0, 30))  # bounces high: 400 <= 120 % of 500
    now, more = feed(tracker, now, 10, (0, 0, 6000))
    assert events + more == [] and tracker.landing == (400, 600)
    # a fall that starts long after the last landing is not a bounce: it left the table
    now, _ = feed(tracker, now, 200, (0, 980, 100))
    now, _ = feed(tracker, now, 390, (0, 0, 30))
    _, events = feed(tracker, now, 10, (0, 0, 9000))
    assert events == [(motion.DROP, 390)] and tracker.landing == (390, 150)


def test_a_die_that_bounced_then_fell_off_the_table_is_a_drop():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, shake)
    now, _ = feed(tracker, now, 200, (0, 0, 30))  # a low toss
    now, _ = feed(tracker, now, 10, (0, 0, 9000))
    now, events = feed(tracker, now, 390, (0, 0, 30))  # bounces straight off the edge
    _, more = feed(tracker, now, 10, (0, 0, 9000))
    assert events + more == [(motion.DROP, 390)] and tracker.landing == (390, 240)


def test_a_fall_that_ends_softly_was_caught():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 600, REST)
    now, _ = feed(tracker, now, 390, (0, 0, 30))
    now, events = feed(tracker, now, 20, (0, 0, 1200))  # caught in a hand: no knock
    assert events == [] and tracker.landing is None


def test_a_knock_one_sample_late_still_ends_the_fall():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 600, REST)
    now, _ = feed(tracker, now, 390, (0, 0, 30))
    now, events = feed(tracker, now, 10, (0, 0, 1500))
    _, more = feed(tracker, now, 10, (0, 0, 9000))
    assert events + more == [(motion.DROP, 390)]


def test_hops_in_a_shaking_hand_are_not_landings():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, shake)
    now, _ = feed(tracker, now, 100, (0, 0, 30))  # a hop in the palm
    now, _ = feed(tracker, now, 10, (0, 2000, 1500))
    assert tracker.contact == motion.HAND and tracker.landing is None


def test_a_die_lifted_and_held_still_then_let_fall_is_a_toss():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 600, REST)
    now, _ = feed(tracker, now, 100, (0, 0, 1500))  # picked up: 1.5 g for 100 ms
    assert tracker.contact == motion.HAND
    now, _ = feed(tracker, now, 100, (0, 0, 500))  # slowing to a stop in the hand
    now, _ = feed(tracker, now, 900, REST)  # held still
    now, _ = feed(tracker, now, 350, (0, 0, 30))  # let go 60 cm above the table
    _, events = feed(tracker, now, 10, (0, 0, 9000))
    assert [e for e in events if e[0] == motion.DROP] == []


def test_a_die_held_still_long_is_taken_for_put_down():
    tracker = motion.MotionTracker(hand_still_ms=2000)
    now, _ = feed(tracker, 0, 600, REST)
    now, _ = feed(tracker, now, 100, (0, 0, 1500))
    now, _ = feed(tracker, now, 2100, REST)
    assert tracker.contact == motion.TABLE
    now, _ = feed(tracker, now, 390, (0, 0, 30))  # then knocked off the table
    _, events = feed(tracker, now, 10, (0, 0, 9000))
    assert events == [(motion.DROP, 390)]


def test_a_rolling_die_knocking_its_faces_down_is_not_in_a_hand():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 600, REST)
    # a slap every 80 ms (a face hitting the table), the die near 1 g in between
    now, _ = feed(tracker, now, 1600, lambda i: (0, 0, 2500) if i % 8 == 0 else (0, 300, 800))
    assert tracker.contact == motion.TABLE


def test_offsets_are_learnt_from_the_horizontal_axes_at_rest():
    tracker = motion.MotionTracker()
    # a sensor with offsets of +120, -140 and +230 mg, lying on its z face
    now, _ = feed(tracker, 0, 500, (120, -140, 1230))
    assert tracker.known == [True, True, False] and tracker.calibrations == 1
    assert tracker.offset == [120, -140, 230]  # z: a first guess (its reading less 1 g)
    # on its x face, z is horizontal: its offset is learnt too, x's is kept
    now, _ = feed(tracker, now, 300, shake)
    now, _ = feed(tracker, now, 200, (120, -140, 100))  # a throw: its flight
    now, _ = feed(tracker, now, 10, (3000, -140, 3000))  # and its landing
    _, events = feed(tracker, now, 600, (1120, -140, 210))
    assert events == [(motion.ROLL,)]
    assert tracker.offset == [120, -140, 210] and tracker.known == [True, True, True]


def test_calibrated_offsets_keep_free_fall_free_fall():
    # uncorrected, this sensor reads 364 mg in free fall, and a spin's pull of 200 mg more
    # takes it over the threshold: corrected, it reads the spin alone
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 500, (250, -250, 1100))
    assert tracker.offset == [250, -250, 100]
    now, _ = feed(tracker, now, 390, (250 + 200, -250, 100))
    _, events = feed(tracker, now, 10, (300, 3000, 9000))
    assert events == [(motion.DROP, 390)]
    uncorrected = motion.MotionTracker()
    uncorrected.offset = [0, 0, 0]
    uncorrected.update(0, 0, 0, 1000)
    assert (250 + 200) ** 2 + 250 ** 2 + 100 ** 2 > uncorrected.fall2  # would not have fallen


def test_offsets_are_not_learnt_in_a_hand():
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, 0, 300, shake)  # in the hand
    feed(tracker, now, 600, (200, -100, 980))  # held still, a little tilted
    assert tracker.known == [False, False, False]


def test_a_die_leaning_on_something_teaches_no_offsets():
    tracker = motion.MotionTracker()
    feed(tracker, 0, 500, (300, 0, 950))  # tilted by 17 degrees
    assert tracker.known == [False, False, False] and tracker.calibrations == 0


def test_the_clock_may_wrap_around():
    start = shims.TICKS_PERIOD - 450  # ticks wrap in the middle of the settling
    tracker = motion.MotionTracker()
    now, _ = feed(tracker, start, 300, shake)
    _, events = feed(tracker, now, 1000, REST)
    assert events == [(motion.ROLL,)]


def test_thresholds_come_from_the_constructor():
    tracker = motion.MotionTracker(hop_ms=100, flight_ms=50, impact_mg=1500)
    now, _ = feed(tracker, 0, 150, (0, 0, 0))
    _, events = feed(tracker, now, 10, (0, 0, 1600))
    assert events == [(motion.DROP, 150)]
