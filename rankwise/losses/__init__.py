"""Losses for learning scoring functions (issue 4): pointwise proper composite losses
(paper 004, Agarwal 2014) and pairwise surrogates summed exactly over all pairs
(papers 001 and 003). Losses: lower is better."""

from ._pairwise import PAIRWISE, PairwiseResult, PairwiseSurrogate, pairwise
from ._proper import LOSSES, ProperCompositeLoss, balanced_regret_bound, get

__all__ = ["ProperCompositeLoss", "LOSSES", "get", "balanced_regret_bound", "PAIRWISE", "PairwiseSurrogate",
           "PairwiseResult", "pairwise"]

