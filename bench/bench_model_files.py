"""rankwise model files against skops for fitted pipelines on the credit data.

For each pipeline (imputer + scaler on the numeric columns, one-hot on the categorical
ones, then a learner): the file's size, the best of five load times, whether the loaded
pipeline's scores equal the original's bit for bit, and what skops reports as untrusted
(the types a user must approve before ``skops.io.load`` builds them). skops files are
written with DEFLATE, as rankwise's are. Needs ``pip install skops`` (not a rankwise
dependency); without it only rankwise's numbers are printed.

    python bench/bench_model_files.py
"""

from __future__ import annotations

import os
import tempfile
import time
import zipfile

import numpy as np


def _best(f, repeat=5):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    from sklearn.compose import ColumnTransformer
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    import rankwise as rw
    from rankwise.io._datasets import CREDIT_CATEGORICAL, CREDIT_NUMERIC, load_credit_data

    try:
        import skops
        import skops.io as sio
    except ImportError:
        sio = None
    X, y = load_credit_data()

    def pre():
        return ColumnTransformer([
            ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), CREDIT_NUMERIC),
            ("cat", OneHotEncoder(handle_unknown="ignore"), CREDIT_CATEGORICAL)])

    models = {"LogisticRegression": make_pipeline(pre(), LogisticRegression(max_iter=2000)),
              "BBRRanker": make_pipeline(pre(), rw.BBRRanker()),
              "RandomForest (100 trees)": make_pipeline(pre(), RandomForestClassifier(n_estimators=100,
                                                                                    random_state=0))}
    import sklearn

    print(f"scikit-learn {sklearn.__version__}, skops {skops.__version__ if sio else 'not installed'}")
    print("| pipeline | rankwise bytes | rankwise load ms | skops bytes | skops load ms | equal | skops untrusted |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        for name, m in models.items():
            m.fit(X, y)
            method = "predict_proba" if "Forest" in name else "decision_function"
            ref = getattr(m, method)(X).tobytes()
            a = os.path.join(d, "m.rwm")
            rw.save_model(m, a, overwrite=True)
            ta, ma = _best(lambda: rw.load_model(a))
            equal = getattr(ma, method)(X).tobytes() == ref
            cells = [name, str(os.path.getsize(a)), f"{ta * 1e3:.1f}"]
            if sio is not None:
                b = os.path.join(d, "m.skops")
                sio.dump(m, b, compression=zipfile.ZIP_DEFLATED)
                untrusted = sio.get_untrusted_types(file=b)
                tb, mb = _best(lambda: sio.load(b, trusted=untrusted))
                equal = equal and getattr(mb, method)(X).tobytes() == ref
                cells += [str(os.path.getsize(b)), f"{tb * 1e3:.1f}", str(equal), ", ".join(untrusted)]
            else:
                cells += ["-", "-", str(equal), "-"]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
