"""A Ctrl-C that lands anywhere in the work comes out as KeyboardInterrupt, in either build.

CPython runs signal handlers inside a long multiplication of large ints; the deal generator
multiplies such ints, and code compiled by mypyc once took that failure for lack of memory
and aborted the process ("fatal: out of memory", SIGABRT) instead of stopping cleanly.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

#: Shuffles deals while a timer raises KeyboardInterrupt every few hundred microseconds,
#: so that many land inside the generator's arithmetic.
_STORM = textwrap.dedent(
    """
    import random, signal
    from sunlog.engine.deal import SplitMix64, deal_deck, shuffle

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, interrupt)
    caught = 0
    for k in range(1500):
        try:
            signal.setitimer(signal.ITIMER_REAL, random.uniform(0.00001, 0.0003))
            for j in range(20):
                deal_deck(k * 20 + j)
                shuffle(list(range(300)), SplitMix64(j))
            signal.setitimer(signal.ITIMER_REAL, 0)
        except KeyboardInterrupt:
            caught += 1
    print("caught", caught)
    """
)


def test_an_interrupt_inside_the_deal_generator_is_a_keyboard_interrupt() -> None:
    ran = subprocess.run(
        [sys.executable, "-c", _STORM], capture_output=True, text=True, timeout=300, check=False
    )
    assert ran.returncode == 0, (ran.returncode, ran.stderr)
    assert "out of memory" not in ran.stderr
    assert ran.stdout.startswith("caught ")
    assert int(ran.stdout.split()[1]) > 100  # the interrupts did land, and were caught
