"""Exact ranking criteria and inference on a Dask cluster (``pip install 'rankwise[dask]'``).

Every criterion of rankwise is a pass over the rank table, and a pass over a score range
only needs the class masses below that range (``docs/architecture.md``). So a sample too large for
one machine is evaluated exactly, not approximately:

1. **Inspect** (pass 1 over the data): validate labels, scores and weights with the
   single-machine messages (row indices are global), count the classes, and draw a small
   seeded sample of the scores.
2. **Range-partition** (pass 2): splitters are quantiles of the sample; each row goes to
   bucket ``searchsorted(splitters, score, side="right")``, so equal scores share a bucket
   and no tie straddles a boundary. Each chunk groups its rows by bucket (a radix sort
   of the bucket ids) and sends them; score values frequent in the sample travel as
   per-chunk class masses instead of rows (a value held by 90% of the rows costs two
   floats per chunk). Each bucket is a :class:`rankwise.stats.RankAccumulator` fed with
   its rows, kept in worker memory (the accumulator of streams and files: one merge code).
3. **Offsets**: the buckets' class totals (two floats each) give every bucket the mass
   below it.
4. **Pass per bucket**: each criterion's own pass (:mod:`rankwise.criteria`) runs on
   each bucket seen with those offsets (the accumulator's range methods,
   :meth:`rankwise.stats.RankAccumulator.range_sums` and its neighbours) and returns the
   bucket's exact share; the client
   merges a few floats per bucket and criterion. Results equal :mod:`rankwise.metrics` on
   the concatenated data (to floating-point rounding, about 1e-15 relative), whatever the
   splitters: duplicate splitters, empty buckets, one class per bucket and heavy skew only
   change the speed.

Inference (:func:`estimate`, :func:`compare`) adds two rounds over the buckets: the
buckets exchange a few global scalars (suffix totals, the local AUC's cut, the partial
AUC's ROC value at ``max_fpr``), then compute their projection terms; ``estimate`` sends
back per-bucket class moments, ``compare`` sends every row's term back to its chunk (8
bytes per row and scorer) so the K scorers pair up, and only K x K sums reach the client.

Costs, for n rows: two reads of the data; one all-to-all exchange of 9 bytes per row
(8-byte score + label; 17 with weights; 16 bytes per frequent value per chunk); O(B)
floats per criterion to the client (B buckets); ``roc_curve`` returns about
``resolution`` points; ``compare`` reads the data once, holds its label, score and
weight columns on the workers while it partitions each scorer, and sends 8 bytes per row
and scorer back. See ``docs/distributed.md``.

Dask is only imported when these functions run. With a distributed client running
(:func:`local_cluster`, or ``get_client("tcp://scheduler:8786")``) the work goes to it;
otherwise dask's local threaded scheduler is used.

Example (a script; the cluster starts worker processes, hence the guard)::

    import numpy as np
    import dask.array as da
    import rankwise.distributed as rwd

    if __name__ == "__main__":
        with rwd.local_cluster(n_workers=3) as client:
            rng = np.random.default_rng(0)
            y = da.from_array(rng.random(10**7) < 0.3, chunks=10**6)
            s = da.from_array(rng.normal(size=10**7), chunks=10**6) + y
            print(rwd.evaluate(y, s, ["auc", "local_auc:top=0.1", "pnorm_push:p=4"]))
            print(rwd.estimate(y, s, "auc").confidence_interval())
"""

from . import _criteria, _learners
from ._cluster import get_client, local_cluster
from ._criteria import *  # noqa: F403 - the exact criteria and curves, _criteria.__all__
from ._learners import SUPPORTED_ESTIMATORS, fit, fit_bbr, fit_pairwise, fit_proper
from ._groups import by_group
from ._multiclass import multiclass_auc
from ._stats import compare, estimate

__all__ = [*_criteria.__all__, "multiclass_auc", "estimate", "compare", "by_group", "local_cluster", "get_client", "fit", "fit_bbr", "fit_proper",
           "fit_pairwise", "SUPPORTED_ESTIMATORS"]
