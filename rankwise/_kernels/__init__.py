"""Numeric cores on validated arrays: the rank table in its three forms (one table, a
bucket seen through the masses below it, a batch of resampled tables), the per-row
builder, the class split and merge count that build a table (numpy, or compiled with
numba when installed), the pieces passes and projections share, pair counts, sums over all pairs for
the pairwise surrogates, mergeable moments, and the sorts and counts of the multiclass
AUCs and the VUS (radix sorts, compiled, when numba is installed).

Nothing here validates input; the public functions validate once, at the door.
"""

from . import _cells, _censored, _merge, _moments, _pairs, _pairsums, _passes, _projections, _ranktable, _roc, _timeauc
from ._cells import *  # noqa: F403
from ._censored import *  # noqa: F403
from ._merge import *  # noqa: F403
from ._moments import *  # noqa: F403
from ._pairs import *  # noqa: F403
from ._pairsums import *  # noqa: F403
from ._passes import *  # noqa: F403
from ._projections import *  # noqa: F403
from ._ranktable import *  # noqa: F403
from ._roc import *  # noqa: F403
from ._timeauc import *  # noqa: F403

__all__ = [*_cells.__all__, *_censored.__all__, *_ranktable.__all__, *_merge.__all__, *_passes.__all__, *_projections.__all__, *_pairs.__all__, *_pairsums.__all__,
           *_moments.__all__, *_roc.__all__, *_timeauc.__all__]

from . import _orderstats  # noqa: E402
from ._orderstats import *  # noqa: E402, F403

__all__ += _orderstats.__all__

from . import _multiclass  # noqa: E402
from ._multiclass import *  # noqa: E402, F403

__all__ += _multiclass.__all__

from ._bootauc import BootAucPlan, boot_auc_kernel, boot_auc_sums  # noqa: E402, F401
