"""Fuzzing of model files (issue 27): real saved models, mutated at random (description
fields, array members, the engines' booster payloads) in ways that get past the integrity
checks, each loaded and scored in a child process under a memory limit and a timeout. Every
file must be refused with ``ModelFileError`` or load into a model that scores finite
values: never a crash, a hang, a NaN score, a ``MemoryError`` or another exception.

The mutator, the corpus and the child-process runner are in ``tests/_support/model_fuzz.py``;
``bench/fuzz_model_files.py`` runs the same fuzzing for longer, with a table of outcomes."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("resource")  # the children's memory limit (Unix)

import rankwise as rw  # noqa: E402
from _support import model_fuzz as mfz  # noqa: E402
from rankwise.io._model import registered_models  # noqa: E402

# Files per model kind in the quick mode (the boosters, pipelines, trees and forests get
# more: mfz.fuzz_weight): about 270 files, a few seconds of the children's time each 100.
QUICK_N = 8
QUICK_SEED = 1000  # the seeds of the first long run (bench/fuzz_model_files.py --seed 1000)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return mfz.build_corpus(str(tmp_path_factory.mktemp("corpus")))


def _write(folder, name, data):
    path = os.path.join(folder, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def test_corpus_has_every_registered_model(corpus):
    import importlib.util

    expected = set()
    for name, cls in registered_models().items():
        if not cls.__module__.startswith("rankwise."):
            continue  # registered by another test module in the same process
        if name == "BoostedPairwiseRanker":
            expected |= {f"{name}[{e}]" for e in ("xgboost", "lightgbm") if importlib.util.find_spec(e)}
        else:
            expected.add(name)
    expected |= {"DecisionTreeClassifier", "RandomForestClassifier", "Pipeline[SplineTransformer+LogisticRegression]"}
    if importlib.util.find_spec("pandas"):
        expected |= {"Pipeline[ColumnTransformer+LogisticRegression]", "Pipeline[ColumnTransformer+BBRRanker]"}
    assert expected <= set(corpus)


def test_rehashed_file_loads_and_scores_the_same(corpus, tmp_path):
    """The mutator's rewriting alone (every array re-encoded, the description re-serialised,
    every checksum recomputed) changes the bytes and nothing else."""
    for kind, entry in corpus.items():
        original = _write(tmp_path, "a.rwm", entry["data"])
        data = mfz.rehash(entry["data"])
        assert data != entry["data"] and mfz.consistency_problems(data) == [], kind
        rewritten = _write(tmp_path, "b.rwm", data)
        X = mfz.probe_input(entry["probe"])
        expected = [s.tobytes() for s in mfz._scores(rw.load_model(original), X)]
        assert [s.tobytes() for s in mfz._scores(rw.load_model(rewritten), X)] == expected, kind


def test_mutations_stay_consistent(corpus):
    """Every kind of mutation, on every model, leaves the checksums, sizes and ``.npy``
    headers consistent: what the fuzzing tests is the checks behind them."""
    seen = set()
    for kind, entry in corpus.items():
        for mutation in mfz.applicable_kinds(entry["data"]):
            for seed in range(3):
                data, got, desc = mfz.mutate(entry["data"], seed, salt=kind, kind=mutation)
                seen.add(got)
                assert data != entry["data"], (kind, desc)
                assert mfz.consistency_problems(data) == [], (kind, got, desc)
                assert "\n" not in desc
    # the booster payload kinds need a saved booster, i.e. the engine installed
    engines = {"xgb-payload": "BoostedPairwiseRanker[xgboost]", "lgb-payload": "BoostedPairwiseRanker[lightgbm]"}
    expected = {k for k in mfz.MUTATION_WEIGHTS if k not in engines or engines[k] in corpus}
    assert expected <= seen


def test_mutate_is_deterministic(corpus):
    entry = corpus["BBRRanker"]
    assert mfz.mutate(entry["data"], 7, salt="BBRRanker") == mfz.mutate(entry["data"], 7, salt="BBRRanker")
    assert len({mfz.mutate(entry["data"], s, salt="BBRRanker")[2] for s in range(20)}) > 10


def _tree_file(corpus, edit):
    """The decision tree of the corpus with ``edit(node arrays by field) -> description``
    applied to its node table."""
    mf = mfz.ModelFile(corpus["DecisionTreeClassifier"]["data"])
    nodes = mf.doc["attributes"]["tree_"]["value"]["nodes"]
    arrays = {field: mf.array(tag["value"]) for field, tag in nodes.items()}
    desc = edit(arrays)
    for field, tag in nodes.items():
        mf.set_array(tag["value"], arrays[field])
    return mf.to_bytes(), desc


def test_a_deep_check_refuses_what_gets_past_the_checksums(corpus, tmp_path):
    """Crafted files (consistent checksums) refused by the checks of the state itself, not
    by an integrity check: a child out of range, a cycle, a NaN coefficient. They run in a
    child process: a regression must fail this test, not kill it."""
    def out_of_range(a):
        a["left_child"][0] = len(a["left_child"]) + 5
        return "left_child[0] out of range"

    def cycle(a):
        inner = int(np.flatnonzero(a["left_child"] != -1)[-1])
        a["left_child"][inner] = 0
        return f"left_child[{inner}] -> 0 (a cycle)"

    def bad_feature(a):
        a["feature"][0] = 10**6
        return "feature[0] = 10**6"

    files = [_tree_file(corpus, edit) for edit in (out_of_range, cycle, bad_feature)]
    mf = mfz.ModelFile(corpus["BBRRanker"]["data"])
    coef = mf.array("coef_").copy()
    coef[1] = np.nan
    mf.set_array("coef_", coef)
    files.append((mf.to_bytes(), "BBRRanker coef_[1] = nan"))
    jobs = []
    for i, (data, _) in enumerate(files):
        assert mfz.consistency_problems(data) == []
        probe = corpus["BBRRanker" if i == 3 else "DecisionTreeClassifier"]["probe"]
        jobs.append([i, _write(tmp_path, f"{i}.rwm", data), probe])
    results = mfz.run_files(jobs, workers=1, timeout=20)
    for i, (_, desc) in enumerate(files):
        outcome, message, _ = results[i]
        assert outcome == "refused", (desc, outcome, message)
        assert not mfz.INTEGRITY_MESSAGE.search(message), (desc, message)


def test_runner_classifies_crashes_hangs_and_results(tmp_path, monkeypatch):
    """The runner tells a refused file, a finite model, a crash and a hang apart, and a
    crash or a hang costs only its own file."""
    X, y = mfz._numeric_data()
    good = tmp_path / "good.rwm"
    rw.save_model(rw.BBRRanker().fit(X, y), good)
    (tmp_path / "junk.rwm").write_bytes(b"not a model")
    probe = ["numeric", 3]
    jobs = [[0, str(good), probe], [1, str(tmp_path / "junk.rwm"), probe], [2, "CRASH", probe],
            [3, str(good), probe], [4, "HANG", probe]]
    # A child that runs the real _one, except on the two paths that stand for a hostile file.
    hook = tmp_path / "_fuzz_hook.py"
    hook.write_text(
        "import os, signal, time\n"
        "def install(mod):\n"
        "    orig = mod._one\n"
        "    def one(path, probe):\n"
        "        if path == 'CRASH':\n"
        "            os.kill(os.getpid(), signal.SIGSEGV)\n"
        "        if path == 'HANG':\n"
        "            time.sleep(600)\n"
        "        return orig(path, probe)\n"
        "    mod._one = one\n")
    monkeypatch.setattr(mfz, "_CHILD", mfz._CHILD.replace(
        "spec.loader.exec_module(mod); ",
        f"spec.loader.exec_module(mod); sys.path.insert(0, {str(tmp_path)!r}); "
        "import _fuzz_hook; _fuzz_hook.install(mod); "))
    results = mfz.run_files(jobs, workers=1, timeout=3, batch=10)
    assert {i: results[i][0] for i in results} == {0: "finite", 1: "refused", 2: "crash", 3: "finite", 4: "hang"}
    assert "SIGSEGV" in results[2][1]


def test_fuzzed_model_files_are_refused_or_score_finite(corpus, tmp_path):
    """The quick, derandomised fuzzing: about 270 mutated files."""
    records = mfz.fuzz(corpus, str(tmp_path), n=QUICK_N, seed=QUICK_SEED, workers=2, timeout=15)
    print(mfz.summary_table(records, "kind"))
    print(mfz.summary_table(records, "mutation"))
    assert len(records) >= 8 * len(corpus)  # fewer kinds where an engine is not installed
    failing = mfz.failures_report(records)
    if failing:  # the message alone: a traceback would print the corpus's bytes
        pytest.fail(f"mutated model files that are neither refused nor finite:\n{failing}", pytrace=False)
    past = [r for r in records if r["outcome"] == "refused" and mfz.INTEGRITY_MESSAGE.search(r["message"])]
    if past:
        pytest.fail("refused by an integrity check (the mutator is at fault):\n" + "\n".join(
            f"{r['kind']} {r['description']}: {r['message']}" for r in past), pytrace=False)
    # the fuzzing means something: both acceptable outcomes occur, on every kind of mutation
    outcomes = {r["outcome"] for r in records}
    assert {"refused", "finite"} <= outcomes


def test_one_file_outcomes(monkeypatch, tmp_path):
    """How one file's load and scoring are classified (in this process: nothing here can
    crash): a refusal whose message carries a raw escape sequence is a failure, NaN scores
    are, a refusal of the probe's width is ordinary input validation."""
    import rankwise.io

    def refuse(message):
        def load(path):
            raise rankwise.io.ModelFileError(message)
        return load

    monkeypatch.setattr(rankwise.io, "load_model", refuse("Cannot load 'm.rwm': version '\\x1b[2J'"))
    assert mfz._one("m.rwm", ["numeric", 3])[0] == "refused"
    monkeypatch.setattr(rankwise.io, "load_model", refuse("Cannot load 'm.rwm': version '\x1b[2J'"))
    assert mfz._one("m.rwm", ["numeric", 3])[0] == "bad-message"

    class Model:
        def __init__(self, scores=None, error=None):
            self.scores, self.error = scores, error

        def decision_function(self, X):
            if self.error is not None:
                raise self.error
            return np.full(len(X), self.scores)

    for model, expected in ((Model(1.0), "finite"), (Model(np.nan), "nan"), (Model(-np.inf), "nan"),
                            (Model(error=ValueError("X has 3 features, but Model is expecting 4 features as input.")),
                             "input-refused"),
                            (Model(error=KeyError("rbf")), "other-exception"),
                            (Model(error=MemoryError()), "memory")):
        monkeypatch.setattr(rankwise.io, "load_model", lambda path, m=model: m)
        assert mfz._one("m.rwm", ["numeric", 3])[0] == expected, expected

    def broken(path):
        raise TypeError("'NoneType' object is not subscriptable")

    class Step(Model):
        pass

    class Pipeline(Model):  # named as scikit-learn's: its first step validates the input
        def __init__(self, error):
            super().__init__(error=error)
            self.steps = [("step", Step())]

    inner = ValueError("X has 2 features, but BBRRanker is expecting 6 features as input.")
    outer = ValueError("X has 3 features, but Step is expecting 4 features as input.")
    for model, expected in ((Pipeline(inner), "other-exception"), (Pipeline(outer), "input-refused")):
        monkeypatch.setattr(rankwise.io, "load_model", lambda path, m=model: m)
        assert mfz._one("m.rwm", ["numeric", 3])[0] == expected, expected

    monkeypatch.setattr(rankwise.io, "load_model", broken)
    assert mfz._one("m.rwm", ["numeric", 3])[0] == "loaded-other-error"


def test_long_mode_script(capsys):
    """``bench/fuzz_model_files.py``, on a few files of one kind: its tables add up, and its
    exit status says whether it listed failures."""
    import runpy

    from _support.paths import BENCH

    main = runpy.run_path(os.path.join(BENCH, "fuzz_model_files.py"))["main"]
    status = main(["--n", "6", "--seed", "3", "--kinds", "BBRRanker", "--workers", "1"])
    out = capsys.readouterr().out
    assert out.startswith("6 mutated files of 1 model kinds")
    rows = [line.strip("|").split("|") for line in out.splitlines() if line.startswith("| all |")]
    assert len(rows) == 2
    for row in rows:
        cells = [int(c) for c in row[1:]]
        assert cells[0] == 6 == sum(cells[1:])
    failures = out.split("## Failures", 1)[1]
    assert status == (0 if "none: every file" in failures else 1)
