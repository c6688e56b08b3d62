# Golden values for cross-validated AUC intervals: R cvAUC's ci.cvAUC and ci.pooled.cvAUC
# (LeDell, Petersen & van der Laan 2015, "Computationally efficient confidence intervals
# for cross-validated area under the ROC curve estimates", Electronic Journal of Statistics 9).
# Usage (from the project root):
#   R_LIBS=/path/to/lib Rscript tests/golden/make_cvauc_golden.R
# with cvAUC installed there (it is not packaged by Debian: `R CMD INSTALL -l /path/to/lib
# <cvAUC source>`; it imports ROCR and data.table, Debian's r-cran-rocr and
# r-cran-data.table). Self-contained and seeded: it draws the datasets itself and stores
# them (labels, scores, fold ids, unit ids) with cvAUC's outputs in
# tests/golden/cvauc_golden.json, so the tests need no R.
#
# The calls:
#   ci.cvAUC(predictions = s, labels = y, folds = fold, confidence = level)
#   ci.pooled.cvAUC(predictions = s, labels = y, folds = fold, ids = id, confidence = level)
#   cvAUC(s, y, folds = fold)$fold.AUC     (each fold's AUC, in the order of unique(fold))
# What the package computes (read from its source, cvAUC 1.1.4): the fold AUCs from ROCR
# (a tied pair counts 1/2) and their mean; an influence value per row, w1 (p_i - AUC_v) for
# a positive and w0 (q_i - AUC_v) for a negative, with w1 = n / n+ and w0 = n / n- over the
# whole data set, p_i the share of the fold's negatives strictly below the row's score and
# q_i the share of the fold's positives strictly above it (a tied pair counts 0 here);
# sigma^2 = mean over folds of the fold's mean squared influence value; se = sqrt(sigma^2 / n).
# Pooled: a unit's value is the sum of its rows' values within the fold divided by the mean
# number of rows per unit; sigma^2 = mean over folds of the mean over the fold's units of
# the squares; se = sqrt(sigma^2 / number of units). The interval is cvAUC -/+ z se,
# truncated to [0, 1]. The datasets without ties are the ones rankwise must match to 1e-10;
# the tied ones record cvAUC's convention (the tests check a literal re-implementation
# of it, and that rankwise's fold values still agree).
suppressPackageStartupMessages({library(cvAUC); library(jsonlite)})

set.seed(20250601)

cases <- list()

add_case <- function(name, y, s, fold, level, id = NULL, note = "") {
  r <- ci.cvAUC(predictions = s, labels = y, folds = fold, confidence = level)
  f <- cvAUC(s, y, folds = fold)
  case <- list(name = name, note = note, level = level, y = y, s = s, fold = fold,
               fold_order = unique(fold), fold_auc = f$fold.AUC,
               cvauc = r$cvAUC, se = r$se, ci = r$ci, ties = any(duplicated(s)))
  if (!is.null(id)) {
    p <- ci.pooled.cvAUC(predictions = s, labels = y, folds = fold, ids = id, confidence = level)
    stopifnot(abs(p$cvAUC - r$cvAUC) < 1e-15)
    case$id <- id
    case$pooled_se <- p$se
    case$pooled_ci <- p$ci
  }
  cases[[length(cases) + 1]] <<- case
}

# Balanced folds: n = 200, V = 5, binormal scores (continuous: no ties).
n <- 200
y <- rbinom(n, 1, 0.4)
s <- rnorm(n, mean = 1.0 * y)
fold <- sample(rep(1:5, length.out = n))
add_case("binormal_v5", y, s, fold, 0.95)

# Unequal folds, rare positives: n = 233, V = 10 by a random draw of fold ids, 15% positives.
n <- 233
y <- rbinom(n, 1, 0.15)
s <- rnorm(n, mean = 1.5 * y, sd = 1 + 0.5 * y)
fold <- sample(1:10, n, replace = TRUE)
while (any(tapply(y, fold, function(v) min(sum(v), sum(1 - v))) == 0)) fold <- sample(1:10, n, replace = TRUE)
add_case("rare_unequal_v10", y, s, fold, 0.90)

# Two folds, small: n = 24, V = 2, logistic scores; string-free integer fold ids 7 and 3.
n <- 24
y <- rep(c(0, 1), length.out = n)
s <- plogis(rnorm(n, mean = 0.8 * y))
fold <- sample(rep(c(7, 3), length.out = n))
add_case("small_v2", y, s, fold, 0.95)

# Near-perfect separation: the upper end truncated at 1.
n <- 60
y <- rep(c(0, 1), each = 30)
s <- rnorm(n, mean = 2.6 * y)
fold <- rep(1:3, length.out = n)
add_case("separated_v3", y, s, fold, 0.95)

# Pooled repeated measures: 80 units with 1 to 5 rows each, all rows of a unit in one
# fold (V = 5 over the units), the unit's propensity shared by its rows.
units <- 80
rows <- sample(1:5, units, replace = TRUE)
id <- rep(seq_len(units), rows)
ufold <- sample(rep(1:5, length.out = units))
fold <- ufold[id]
b <- rnorm(units)
y <- rbinom(length(id), 1, plogis(-0.4 + b[id]))
s <- b[id] + rnorm(length(id))
add_case("pooled_v5", y, s, fold, 0.95, id = id, note = "units nested in folds")

# Pooled with unequal numbers of units per fold (V = 4) and string-like numeric ids.
units <- 45
rows <- sample(2:4, units, replace = TRUE)
id <- rep(1000 + seq_len(units) * 3, rows)
ufold <- sample(1:4, units, replace = TRUE, prob = c(0.4, 0.3, 0.2, 0.1))
fold <- ufold[match(id, 1000 + seq_len(units) * 3)]
b <- rnorm(units)
y <- rbinom(length(id), 1, plogis(b[match(id, 1000 + seq_len(units) * 3)]))
s <- 0.7 * b[match(id, 1000 + seq_len(units) * 3)] + rnorm(length(id))
add_case("pooled_unequal_v4", y, s, fold, 0.95, id = id, note = "units nested in folds, unequal folds")

# Ties: scores rounded to one decimal (cvAUC's influence values count a tied pair 0).
n <- 150
y <- rbinom(n, 1, 0.5)
s <- round(rnorm(n, mean = 0.8 * y), 1)
fold <- sample(rep(1:5, length.out = n))
add_case("ties_v5", y, s, fold, 0.95, note = "ties: cvAUC's standard error uses strict placements")

# Ties, pooled.
units <- 40
rows <- sample(1:4, units, replace = TRUE)
id <- rep(seq_len(units), rows)
ufold <- sample(rep(1:4, length.out = units))
fold <- ufold[id]
y <- rbinom(length(id), 1, 0.45)
s <- round(rnorm(length(id), mean = y), 0)
add_case("ties_pooled_v4", y, s, fold, 0.95, id = id, note = "ties, pooled")

out <- list(R_version = R.version.string,
            cvAUC_version = as.character(packageVersion("cvAUC")),
            ROCR_version = as.character(packageVersion("ROCR")),
            data.table_version = as.character(packageVersion("data.table")),
            jsonlite_version = as.character(packageVersion("jsonlite")),
            seed = 20250601,
            script = "tests/golden/make_cvauc_golden.R",
            cases = cases)
# Doubles as verbatim %.17g text (jsonlite prints at most 15 significant digits, which
# does not round-trip every double); NULL as null.
exact <- function(x) {
  if (is.null(x)) return(NULL)
  if (is.list(x)) return(lapply(x, exact))
  if (is.double(x)) {
    txt <- ifelse(is.finite(x), sprintf("%.17g", x), "null")
    return(structure(if (length(x) == 1) txt else paste0("[", paste(txt, collapse = ", "), "]"),
                     class = "json"))
  }
  x
}
write_json(exact(out), "tests/golden/cvauc_golden.json", digits = NA, auto_unbox = TRUE, pretty = TRUE,
           na = "null", null = "null", json_verbatim = TRUE)
