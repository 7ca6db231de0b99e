"""The Wilson score interval of a proportion: how sure a win rate measured on N deals is.

Its own module because the statistics (:mod:`sunlog.play.stats`) and the batches of
solved deals (:mod:`sunlog.play.batch`, :mod:`sunlog.play.study`) both report one.
"""

from __future__ import annotations

import math

__all__ = ["wilson"]

#: z for a two-sided 95% interval.
_Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) for no trials."""
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be 0..{trials}, not {successes}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # at 0 and at all successes the bound is exactly 0 or 1; rounding would miss it
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)
