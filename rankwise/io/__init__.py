"""Input and output: model files (no pickle), atomic writes, the bundled real dataset.

* :func:`save_model`, :func:`load_model`, :func:`inspect_model`: fitted estimators as
  ZIP archives of JSON and ``.npy`` members; loading never executes code
  (``docs/model_format.md``).
* :func:`write_atomic`, :func:`check_output`: the one rule for every file rankwise
  writes: never an input, never an existing file without ``force``, created exclusively,
  never half-written, no temporary file left behind (``rankwise/io/_atomic.py``).
* :func:`file_fingerprint`, :func:`array_fingerprint`: the size and SHA-256 of the data a
  result was computed from (the report's header names them).
* :func:`load_credit_data`: the credit-scoring table of the main job, offline.
"""

from ._atomic import check_output, write_atomic
from ._datasets import CREDIT_CATEGORICAL, CREDIT_NUMERIC, load_credit_data
from ._fingerprint import array_fingerprint, file_fingerprint
from ._model import (
    FORMAT_VERSION,
    ModelFileError,
    inspect_model,
    load_model,
    register_model,
    registered_models,
    save_model,
)

__all__ = [
    "save_model",
    "load_model",
    "inspect_model",
    "register_model",
    "registered_models",
    "ModelFileError",
    "FORMAT_VERSION",
    "write_atomic",
    "check_output",
    "file_fingerprint",
    "array_fingerprint",
    "load_credit_data",
    "CREDIT_NUMERIC",
    "CREDIT_CATEGORICAL",
]
