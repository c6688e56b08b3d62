"""The AUC by group on Dask collections, exact.

:func:`rankwise.stats.by_group` reads every AUC between unions of class x group cells
off each cell's *placement moments*: the mass, the sum and the centred second moments of
its rows' placements in every cell (:class:`rankwise._kernels.CellMoments`). A placement
in a score range is the mass of the cell below the range plus the placement within it,
and moments of disjoint parts merge exactly. So on Dask:

1. **Inspect** (as :func:`estimate`): labels, scores, weights validated with the
   single-machine messages; the groups' ids checked (none missing) and their distinct
   values collected and sorted (the single-machine order).
2. **Range-partition** the rows (score, label, group code, weight) into buckets by the
   sampled splitters (equal scores share a bucket); each bucket sends its cells' masses
   (2G floats).
3. **Moments**: each bucket, given the masses of every cell in the buckets below it,
   computes its cells' placement moments (2G x 2G floats per cell at most) and the client
   merges them (Chan, Golub & LeVeque's pairwise update) and evaluates the same quadratic
   forms as one machine.

The result equals ``rankwise.stats.by_group(..., criteria=("auc",))`` to rounding. The
overall row is :func:`rankwise.distributed.estimate`'s AUC.
"""

from __future__ import annotations

import numpy as np

from .._kernels import CellMoments, GroupCells, placement_moments
from ..stats import GroupEstimates
from ..stats.blocks import GroupSizes, auc_by_group_from_moments, check_reference_group
from . import _partition as _p
from ._cluster import require_dask
from ._stats import _SHOWN, _clean_ids, _concat_ids, _unique_inverse
from ._stats import estimate as _estimate

__all__ = ["by_group"]


def _chunk_ids(raw):
    """A chunk's group ids, the missing ones reported (the rules of ``check_groups``)."""
    try:
        arr, (n, missing) = _clean_ids(raw, "by_group")
    except TypeError:
        raise TypeError("The 'groups' parameter of by_group must hold ids (integers, strings, ...).") from None
    return arr, n, missing, _unique_inverse(arr)[0]


def _report(x):
    return x[1], x[2], x[3]


def _split(chunk, ids, splitters, pos_label, names, scale, n_out):
    """One chunk cut into per-bucket pieces ``(s, is_pos, code, w)``."""
    y, scores, w = chunk
    arr = ids[0]
    w = _p._scaled(w, scale)
    s = scores[0]
    lab = _p.is_positive(y, pos_label)
    try:
        code = np.searchsorted(names, arr)
        if not np.array_equal(names[np.minimum(code, names.shape[0] - 1)], arr):
            raise TypeError
    except TypeError:  # ids that do not sort: by equality
        table = {v: k for k, v in enumerate(names.tolist())}
        code = np.fromiter((table[v] for v in arr.tolist()), dtype=np.int64, count=arr.shape[0])
    bucket = np.searchsorted(splitters, s, side="right").astype(np.uint16)
    order = np.argsort(bucket, kind="stable")
    cuts = np.concatenate(([0], np.cumsum(np.bincount(bucket, minlength=n_out))))
    so, lo, co = s[order], lab[order], code[order].astype(np.int64)
    wo = None if w is None else w[order]
    return tuple((so[a:b], lo[a:b], co[a:b], None if wo is None else wo[a:b]) for a, b in zip(cuts[:-1], cuts[1:]))


def _merge(G, *pieces):
    s = np.concatenate([p[0] for p in pieces])
    lab = np.concatenate([p[1] for p in pieces])
    code = np.concatenate([p[2] for p in pieces])
    w = None if pieces[0][3] is None else np.concatenate([p[3] for p in pieces])
    cells = GroupCells(lab, code, G, w)
    return s, cells


def _masses(bucket):
    cells = bucket[1]
    return np.concatenate((cells.mass[:, 0], cells.mass[:, 1])), cells.n_rows


def _moments(bucket, same_class, colmass, offsets):
    s, cells = bucket
    return placement_moments(s, cells, same_class, colmass, offsets)


def by_group(y_true, y_score=None, groups=None, *, reference=None, sample_weight=None, pos_label=None,
             adjust: str = "holm", confidence_level: float = 0.95, bias: bool = True, transform=None, label=None,
             score=None, weight=None, n_partitions=None, chunk_size=None, client=None) -> GroupEstimates:
    """The AUC by group of data held by Dask, exact: :func:`rankwise.stats.by_group`
    with ``criteria=("auc",)`` (values, intervals, each group against the reference or
    the rest, the global test, the bias AUCs) on dask arrays, a dask DataFrame (column
    names ``label=``, ``score=``, ``weight=``, ``groups=``) or a Parquet path.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, label, score, weight, n_partitions, chunk_size, client
        As in :func:`rankwise.distributed.estimate`.
    groups : dask array or Series, array-like, or a column name
        The group of each row (aligned with ``y_true``'s chunks), or with a DataFrame or
        Parquet input the name of its column.
    reference, adjust, confidence_level, bias, transform
        As in :func:`rankwise.stats.by_group`.

    Returns
    -------
    GroupEstimates

    Notes
    -----
    Independent rows only (no ``clusters``) and one scorer; the AUC only. Costs two reads
    of the data for the partition plus :func:`estimate`'s for the overall row, one
    exchange of the rows (17 bytes a row, 25 with weights), and O(B G^2) floats to the
    client for B buckets and G groups (O(B G^3) with the bias AUCs).
    """
    dask, _ = require_dask()
    if groups is None:
        raise TypeError("The 'groups' parameter of by_group is required: one group id per row (or a column name).")
    frame = _p._is_path(y_true) or _p._is_dask_frame(y_true)
    if frame:
        src = _p.as_source(y_true, [None], None, label=label, score=[score] if score is not None else None,
                           weight=weight, chunk_size=chunk_size, clusters=groups, ids_name="groups")
    else:
        src = _p.as_source(y_true, [y_score], sample_weight, chunk_size=chunk_size, clusters=groups,
                           ids_name="groups")
    insp = _p.inspect(src, client, pos_label)
    C = len(src.chunks)
    done = _p.persist(list(src.chunks) + [dask.delayed(_chunk_ids, pure=True)(r) for r in src.clusters], client)
    src.chunks, ids = done[:C], done[C:]
    reports = _p.compute([dask.delayed(_report, pure=True)(x) for x in ids], client)
    start, found, total, what, uniq = 0, [], 0, None, []
    for (n, missing, u), rows in zip(reports, insp.chunk_rows):
        if n != rows:
            raise ValueError(f"The 'groups' parameter of by_group must have one id per row: a chunk of {rows} rows "
                             f"has {n} ids.")
        if missing is not None:
            what = what or missing[0]
            found.extend(int(i) + start for i in missing[1][:_SHOWN])
            total += missing[2]
        uniq.append(u)
        start += rows
    if total:
        shown = ", ".join(str(i) for i in found[:5]) + (", ..." if total > 5 else "")
        raise ValueError(f"The 'groups' parameter of by_group has {what} at rows {shown}; every row needs the id "
                         f"of its group.")
    names = _unique_inverse(_concat_ids(uniq))[0]
    G = int(names.shape[0])
    gnames = [v.item() if hasattr(v, "item") else v for v in names]
    check_reference_group(reference, gnames)  # before any work
    scale = insp.mass_scale
    B = min(_p.default_partitions(insp.n, C) if n_partitions is None else int(n_partitions), _p.MAX_PARTITIONS)
    spl = _p.choose_splitters(insp.samples[0], max(B, 1))
    nb = spl.shape[0] + 1
    split = dask.delayed(_split, nout=nb, pure=True)
    pieces = [split(ch, ids[c], spl, insp.pos_label, names, scale, nb) for c, ch in enumerate(src.chunks)]
    merge = dask.delayed(_merge, pure=True)
    buckets = _p.persist([merge(G, *[p[b] for p in pieces]) for b in range(nb)], client)
    sums = _p.compute([dask.delayed(_masses, pure=True)(b) for b in buckets], client)
    masses = np.array([m for m, _ in sums]).reshape(nb, 2 * G)
    n_rows = np.sum([r for _, r in sums], axis=0).astype(np.int64)
    offsets = np.vstack((np.zeros(2 * G), np.cumsum(masses, axis=0)[:-1]))
    colmass = masses.sum(axis=0)
    parts = _p.compute([dask.delayed(_moments, pure=True)(b, bool(bias), colmass, offsets[i])
                        for i, b in enumerate(buckets)], client)
    moments = CellMoments.merged(parts, G, bool(bias), scale, colmass)
    sizes = GroupSizes(np.column_stack((colmass[:G], colmass[G:])), n_rows, scale)
    if frame:
        overall = _estimate(y_true, None, "auc", pos_label=pos_label, label=label, score=score, weight=weight,
                            n_partitions=n_partitions, client=client)
    else:
        overall = _estimate(y_true, y_score, "auc", sample_weight=sample_weight, pos_label=pos_label,
                            n_partitions=n_partitions, chunk_size=chunk_size, client=client)
    return auc_by_group_from_moments(moments, sizes, gnames, overall, reference=reference, adjust=adjust,
                                     confidence_level=confidence_level, bias=bool(bias), transform=transform,
                                     scorer=str(score) if score is not None else "score")
