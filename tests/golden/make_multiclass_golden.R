# Golden values for the multiclass AUCs and the VUS/HUM (issue 31), from R:
#   pROC 1.18 multiclass.roc (the matrix form: Hand & Till's M; the univariate form),
#   VUROCS 1.0 VUS / VUSvar / VUScov, trinROC 0.7 emp.vus.
# Usage (from the project root): Rscript tests/golden/make_multiclass_golden.R
# Needs pROC, MASS, jsonlite, VUROCS and trinROC (install.packages(c("VUROCS", "trinROC"))
# or R CMD INSTALL of their CRAN sources; VUROCS needs Rcpp, RcppArmadillo, foreach,
# doParallel, trinROC needs ggplot2, gridExtra, rgl). Writes
# tests/golden/multiclass_golden.json; the tests read only the JSON (CI has no R).
#
# Each dataset holds classes `labels` in their order (lowest first), the labels y, a matrix P
# of class probabilities (column k scores labels[k], rows sum to 1) and one or two single
# scores s1, s2 (higher = higher class). Recorded per dataset (the exact calls under "calls"):
#   pROC matrix form   multiclass.roc(factor(y, levels = labels), P)  (P's column names are
#                      the labels; direction defaults to ">" for a matrix): M, and per pair
#                      (i, j) in combn order the AUCs of its two rocs: rocs[[1]] has
#                      controls = class i, cases = class j, both scored on column i, direction
#                      ">" (a control above a case is correct), i.e. P(P[class i, i] >
#                      P[class j, i]), ties 1/2; rocs[[2]] the same with i and j swapped.
#   pROC univariate    multiclass.roc(factor(y, levels = labels), s1, quiet = TRUE): M and per
#                      pair its direction, chosen from the data ("<" when median(controls) <=
#                      median(cases)), and its AUC.
#   VUROCS             VUS(code, s)$val, VUSvar(code, s)$var, VUScov(code, s1, s2)$cov with
#                      code = match(y, labels) (1..K in the class order; VUROCS orders the
#                      classes by sort(unique(y))). VUScov visits every pair of rows of a class
#                      times every pair of the next class (R loops): computed only where the
#                      largest class has at most 60 rows, else null with the reason.
#   trinROC (K = 3)    emp.vus(x, y, z) (old.version = TRUE, the default) and
#                      emp.vus(x, y, z, old.version = FALSE), x, y, z the scores of classes
#                      1, 2, 3.
# Conventions read from the sources: VUROCS counts a chain only when its scores increase
# strictly (rows sorted by class descending, then stably by score, then one pass), so a tie
# between classes counts 0, in VUS, VUSvar and VUScov alike; trinROC counts a tied pair 1/2
# and three tied 1/6. VUSvar/VUScov are the plug-in (V-statistic) form of the exact variance
# of a K-sample U-statistic (Bamber's 1975 formula for K = 2, generalised): see
# tests/_support/reference_vurocs.py.
suppressPackageStartupMessages({
  library(pROC); library(MASS); library(jsonlite); library(VUROCS)
  options(rgl.useNULL = TRUE)
  suppressWarnings(library(trinROC))
})

SEED <- 20260311
set.seed(SEED)

softmax <- function(Z) { E <- exp(Z - apply(Z, 1, max)); E / rowSums(E) }

# Draw: sizes per class; scores shifted by the class index (classes 1..K).
synthetic <- function(sizes, shift_p, shift_s, digits_s = NA, digits_p = NA) {
  K <- length(sizes)
  code <- sample(rep(seq_len(K), sizes))
  n <- length(code)
  Z <- matrix(rnorm(n * K), n, K)
  Z[cbind(seq_len(n), code)] <- Z[cbind(seq_len(n), code)] + shift_p
  P <- softmax(Z)
  if (!is.na(digits_p)) { P <- round(P, digits_p); P <- P / rowSums(P) }
  s1 <- shift_s * code + rnorm(n)
  s2 <- 0.6 * s1 + 0.8 * shift_s * code + rnorm(n)
  if (!is.na(digits_s)) { s1 <- round(s1, digits_s); s2 <- round(s2, digits_s) }
  list(code = code, P = P, s1 = s1, s2 = s2)
}

lda_posterior <- function(formula, data) {
  unname(predict(lda(formula, data = data), data)$posterior)
}

datasets <- list()
add <- function(name, note, labels, code, P, s1, s2 = NULL) {
  colnames(P) <- labels
  datasets[[name]] <<- list(note = note, labels = labels, y = labels[code], code = code,
                            P = P, s1 = s1, s2 = s2)
}

# 1. three classes, unequal sizes, continuous: no ties anywhere.
d <- synthetic(c(9, 12, 14), 1.0, 0.8)
add("normal3", "synthetic, K = 3, sizes 9/12/14, continuous scores: no ties",
    c("low", "mid", "high"), d$code, d$P, d$s1, d$s2)

# 2. three classes, heavy ties: P from small integer counts over their row total (ties within
# and across classes, on every column), single scores rounded to integers.
code <- sample(rep(1:3, c(11, 6, 13)))
C <- matrix(sample(0:3, 30 * 3, replace = TRUE), 30, 3)
C[cbind(1:30, code)] <- C[cbind(1:30, code)] + sample(0:2, 30, replace = TRUE)
C[rowSums(C) == 0, 1] <- 1
s1 <- round(0.7 * code + rnorm(30))
s2 <- round(0.5 * s1 + 0.5 * code + rnorm(30))
add("tied3", "synthetic, K = 3, sizes 11/6/13: P = integer counts 0..5 / row total, s1 and s2 rounded to integers (heavy ties within and across classes)",
    c("a", "b", "c"), code, C / rowSums(C), s1, s2)

# 3. four classes, mild ties (probabilities to 2 decimals then renormalised; scores to 0.1).
d <- synthetic(c(8, 12, 5, 10), 1.2, 0.7, digits_s = 1, digits_p = 2)
add("four_class", "synthetic, K = 4, sizes 8/12/5/10: P rounded to 2 decimals then renormalised, s1 and s2 rounded to 0.1 (some ties)",
    c("k1", "k2", "k3", "k4"), d$code, d$P, d$s1, d$s2)

# 4. five classes, continuous.
d <- synthetic(c(6, 9, 4, 8, 7), 1.0, 0.6)
add("five_class", "synthetic, K = 5, sizes 6/9/4/8/7, continuous scores: no ties",
    c("c1", "c2", "c3", "c4", "c5"), d$code, d$P, d$s1, d$s2)

# 5. iris (real): P from linear discriminant analysis on the two sepal measurements (so the
# classes overlap); single scores Petal.Length and Sepal.Length (ties: one decimal).
P <- lda_posterior(Species ~ Sepal.Length + Sepal.Width, iris)
add("iris", "R datasets::iris, 150 rows: P = MASS::lda(Species ~ Sepal.Length + Sepal.Width) posterior; s1 = Petal.Length, s2 = Sepal.Length (recorded to 0.1: ties); class order setosa < versicolor < virginica",
    levels(iris$Species), as.integer(iris$Species), P, iris$Petal.Length, iris$Sepal.Length)

# 6. mtcars (real, graded): cylinders 4 < 6 < 8, scores displacement and horsepower.
P <- lda_posterior(factor(cyl) ~ mpg + wt, mtcars)
add("mtcars_cyl", "R datasets::mtcars, 32 rows, graded: cyl 4 < 6 < 8 (sizes 11/7/14); P = MASS::lda(factor(cyl) ~ mpg + wt) posterior; s1 = disp, s2 = hp (ties in hp)",
    c("4", "6", "8"), match(mtcars$cyl, c(4, 6, 8)), P, mtcars$disp, mtcars$hp)

# 7. ToothGrowth (real, graded): dose 0.5 < 1 < 2 mg/day, score tooth length.
P <- lda_posterior(factor(dose) ~ len + supp, ToothGrowth)
add("toothgrowth", "R datasets::ToothGrowth, 60 rows, graded: dose 0.5 < 1 < 2 (20 each); P = MASS::lda(factor(dose) ~ len + supp) posterior; s1 = len (ties)",
    c("0.5", "1", "2"), match(ToothGrowth$dose, c(0.5, 1, 2)), P, ToothGrowth$len)

# 8. airquality (real, graded, K = 4): May < June < July < August, days 1-10 of each month;
# scores the temperature and minus the wind speed (both with ties).
aq <- subset(airquality, Month %in% 5:8 & Day <= 10)
aq$Mon <- factor(month.name[aq$Month], levels = month.name[5:8])
P <- lda_posterior(Mon ~ Temp + Wind, aq)
add("airquality_k4", "R datasets::airquality, days 1-10 of May..August (40 rows, 10 per month), graded by month; P = MASS::lda(Month ~ Temp + Wind) posterior; s1 = Temp, s2 = -Wind (ties)",
    month.name[5:8], aq$Month - 4L, P, aq$Temp, -aq$Wind)

calls <- list(
  proc_matrix = "multiclass.roc(factor(y, levels = labels), P)  # colnames(P) = labels; direction '>' (the matrix default)",
  proc_matrix_pair = "per pair i/j of combn(labels, 2): as.numeric(auc(mr$rocs[['i/j']][[1]])) (column i, controls i, cases j) and [[2]] (column j, controls j, cases i)",
  proc_univariate = "multiclass.roc(factor(y, levels = labels), s1, quiet = TRUE)  # direction 'auto' per pair",
  vus = "VUS(code, s)$val  # code = match(y, labels)",
  vusvar = "VUSvar(code, s)$var",
  vuscov = "VUScov(code, s1, s2)$cov",
  emp_vus = "emp.vus(s[code == 1], s[code == 2], s[code == 3])  # and old.version = FALSE"
)

result <- list()
for (name in names(datasets)) {
  d <- datasets[[name]]
  resp <- factor(d$y, levels = d$labels)
  K <- length(d$labels)
  sizes <- as.integer(table(resp))
  out <- list(note = d$note, labels = d$labels, y = d$y, sizes = sizes, P = d$P, s1 = d$s1)
  if (!is.null(d$s2)) out$s2 <- d$s2

  mr <- multiclass.roc(resp, d$P)
  pairs <- list()
  for (pn in names(mr$rocs)) {
    r1 <- mr$rocs[[pn]][[1]]; r2 <- mr$rocs[[pn]][[2]]
    ij <- strsplit(pn, "/", fixed = TRUE)[[1]]
    pairs[[length(pairs) + 1]] <- list(
      i = ij[1], j = ij[2],
      auc_1 = as.numeric(auc(r1)), controls_1 = r1$levels[1], cases_1 = r1$levels[2], direction_1 = r1$direction,
      auc_2 = as.numeric(auc(r2)), controls_2 = r2$levels[1], cases_2 = r2$levels[2], direction_2 = r2$direction)
  }
  out$proc_matrix <- list(M = as.numeric(mr$auc), pairs = pairs)

  mu <- multiclass.roc(resp, d$s1, quiet = TRUE)
  upairs <- lapply(mu$rocs, function(r) list(controls = r$levels[1], cases = r$levels[2],
                                             direction = r$direction, auc = as.numeric(auc(r))))
  out$proc_univariate <- list(M = as.numeric(mu$auc), pairs = unname(upairs))

  vur <- list()
  for (sn in c("s1", "s2")) {
    s <- d[[sn]]
    if (is.null(s)) next
    v <- VUS(d$code, s)
    vv <- VUSvar(d$code, s)
    stopifnot(isTRUE(all.equal(v$val, vv$val)))
    vur[[sn]] <- list(vus = v$val, count = v$count, var = vv$var)
  }
  if (!is.null(d$s2)) {
    if (max(sizes) <= 60) {
      cv <- VUScov(d$code, d$s1, d$s2)
      vur$cov <- cv$cov
    } else {
      vur$cov <- NULL
      vur$cov_skipped <- sprintf("largest class has %d rows (> 60): VUScov's R loops over pairs of rows are too slow", max(sizes))
    }
  }
  out$vurocs <- vur

  if (K == 3) {
    tr <- list()
    for (sn in c("s1", "s2")) {
      s <- d[[sn]]
      if (is.null(s)) next
      a <- emp.vus(s[d$code == 1], s[d$code == 2], s[d$code == 3])
      b <- emp.vus(s[d$code == 1], s[d$code == 2], s[d$code == 3], old.version = FALSE)
      tr[[sn]] <- list(emp_vus = a, emp_vus_new = b)
    }
    out$trinroc <- tr
  }
  result[[name]] <- out
}

# The examples of VUROCS's own help pages (small, hand-checkable; heavy ties).
examples <- list(
  list(call = "VUS(rep(1:5, each = 3), c(3, 3, 3, rep(2:5, each = 3)))",
       y = rep(1:5, each = 3), s1 = c(3, 3, 3, rep(2:5, each = 3)),
       vus = VUS(rep(1:5, each = 3), c(3, 3, 3, rep(2:5, each = 3)))$val),
  list(call = "VUSvar(rep(1:5, each = 3), c(1, 2, 3, rep(2:5, each = 3)))",
       y = rep(1:5, each = 3), s1 = c(1, 2, 3, rep(2:5, each = 3)),
       vus = VUSvar(rep(1:5, each = 3), c(1, 2, 3, rep(2:5, each = 3)))$val,
       var = VUSvar(rep(1:5, each = 3), c(1, 2, 3, rep(2:5, each = 3)))$var),
  list(call = "VUScov(c(1, 2, 1, 3, 2, 3), c(1, 2, 3, 4, 5, 6), c(1, 3, 2, 4, 6, 5))",
       y = c(1, 2, 1, 3, 2, 3), s1 = c(1, 2, 3, 4, 5, 6), s2 = c(1, 3, 2, 4, 6, 5),
       vus1 = VUScov(c(1, 2, 1, 3, 2, 3), c(1, 2, 3, 4, 5, 6), c(1, 3, 2, 4, 6, 5))$val_f1,
       vus2 = VUScov(c(1, 2, 1, 3, 2, 3), c(1, 2, 3, 4, 5, 6), c(1, 3, 2, 4, 6, 5))$val_f2,
       cov = VUScov(c(1, 2, 1, 3, 2, 3), c(1, 2, 3, 4, 5, 6), c(1, 3, 2, 4, 6, 5))$cov,
       var1 = VUSvar(c(1, 2, 1, 3, 2, 3), c(1, 2, 3, 4, 5, 6))$var,
       var2 = VUSvar(c(1, 2, 1, 3, 2, 3), c(1, 3, 2, 4, 6, 5))$var)
)

out <- list(R_version = R.version.string,
            pROC_version = as.character(packageVersion("pROC")),
            VUROCS_version = as.character(packageVersion("VUROCS")),
            trinROC_version = as.character(packageVersion("trinROC")),
            MASS_version = as.character(packageVersion("MASS")),
            jsonlite_version = as.character(packageVersion("jsonlite")),
            seed = SEED,
            script = "tests/golden/make_multiclass_golden.R",
            calls = calls,
            datasets = result,
            vurocs_examples = examples)

# Doubles as verbatim %.17g text (jsonlite prints at most 15 significant digits, which does
# not round-trip every double); a matrix as a list of rows; NULL as null.
exact <- function(x) {
  if (is.null(x)) return(NULL)
  if (is.list(x)) return(lapply(x, exact))
  if (is.matrix(x)) return(lapply(seq_len(nrow(x)), function(i) exact(as.vector(x[i, ]))))
  if (is.double(x)) {
    txt <- ifelse(is.finite(x), sprintf("%.17g", x), "null")
    return(structure(if (length(x) == 1) txt else paste0("[", paste(txt, collapse = ", "), "]"),
                     class = "json"))
  }
  x
}
write_json(exact(out), "tests/golden/multiclass_golden.json", digits = NA, auto_unbox = TRUE, pretty = TRUE,
           na = "null", null = "null", json_verbatim = TRUE)
