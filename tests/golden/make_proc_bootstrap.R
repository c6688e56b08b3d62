# Law anchors from R pROC for the bootstrap comparison of two ROC curves
# (rankwise.stats.compare / compare_unpaired with method="bootstrap").
# Usage (from the project root): Rscript tests/golden/make_proc_bootstrap.R
# Writes tests/golden/proc_bootstrap.json: the data of every case (so the Python test reads
# the same numbers), pROC's point values (deterministic: compared to 1e-9), and its
# bootstrap statistic D, p-value and the bootstrap sd of the difference, sd = (theta1 -
# theta2) / D (random: compared within Monte Carlo error), with the seed and boot.n.
#
# Every ROC is roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE): controls 0, cases
# 1, a higher score means case, nothing inferred. The partial AUC is
# partial.auc = c(1, 0.8), partial.auc.focus = "specificity", partial.auc.correct = FALSE,
# i.e. the area for false-positive rates in [0, 0.2] (rankwise: partial_auc, max_fpr=0.2).
# roc.test(..., method = "bootstrap") resamples the controls and the cases separately
# (boot.stratified = TRUE, the default), with the same draw for both curves when paired.
# boot.n is 10000 (not pROC's default 2000) so that pROC's own Monte Carlo error in the sd
# (relative, about 1/sqrt(2 boot.n) = 0.7%) is small next to the tolerance of the test.
suppressPackageStartupMessages({library(pROC); library(jsonlite)})

BOOT_N <- 10000
mkroc <- function(y, s, partial) {
  if (partial) {
    roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE, partial.auc = c(1, 0.8),
        partial.auc.focus = "specificity", partial.auc.correct = FALSE)
  } else {
    roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
  }
}
num <- function(v) structure(sprintf("%.17g", v), class = "json")
run <- function(ya, sa, yb, sb, paired, partial, seed) {
  r1 <- mkroc(ya, sa, partial); r2 <- mkroc(yb, sb, partial)
  set.seed(seed)
  t <- roc.test(r1, r2, method = "bootstrap", boot.n = BOOT_N, paired = paired, progress = "none")
  D <- unname(as.numeric(t$statistic))
  list(paired = paired, criterion = if (partial) "partial_auc" else "auc",
       criterion_args = if (partial) list(max_fpr = 0.2) else structure(list(), names = character(0)),
       seed = seed, boot_n = BOOT_N,
       theta_a = num(as.numeric(r1$auc)), theta_b = num(as.numeric(r2$auc)),
       statistic = num(D), p_value = num(as.numeric(t$p.value)),
       sd = num((as.numeric(r1$auc) - as.numeric(r2$auc)) / D))
}

data(aSAH)
y <- as.integer(aSAH$outcome == "Poor")
s100b <- aSAH$s100b; ndka <- aSAH$ndka; wfns <- as.numeric(aSAH$wfns)
male <- aSAH$gender == "Male"

set.seed(20261206)
n <- 200
ys <- rbinom(n, 1, 0.4)
s1 <- round(ys * 0.9 + rnorm(n), 1)           # ties: one decimal
s2 <- round(0.6 * s1 + ys * 0.3 + rnorm(n), 1)  # correlated with s1
nb <- 150
yb <- rbinom(nb, 1, 0.5)
sb <- round(yb * 0.6 + rnorm(nb), 1)

datasets <- list(
  aSAH = list(y = y, s100b = s100b, ndka = ndka, wfns = wfns, male = male),
  simulated = list(y = ys, s1 = s1, s2 = s2, y_b = yb, s_b = sb)
)
cases <- list()
add <- function(name, a, b, res) {
  res$name <- name; res$a <- a; res$b <- b
  cases[[length(cases) + 1]] <<- res
}
seed <- 1
for (partial in c(FALSE, TRUE)) {
  tag <- if (partial) "pauc" else "auc"
  add(paste0("aSAH_s100b_ndka_", tag), "s100b", "ndka", run(y, s100b, y, ndka, TRUE, partial, seed)); seed <- seed + 1
  add(paste0("aSAH_wfns_s100b_", tag), "wfns", "s100b", run(y, wfns, y, s100b, TRUE, partial, seed)); seed <- seed + 1
  add(paste0("aSAH_s100b_male_female_", tag), "s100b[male]", "s100b[!male]",
      run(y[male], s100b[male], y[!male], s100b[!male], FALSE, partial, seed)); seed <- seed + 1
  add(paste0("simulated_s1_s2_", tag), "s1", "s2", run(ys, s1, ys, s2, TRUE, partial, seed)); seed <- seed + 1
  add(paste0("simulated_s1_sb_", tag), "s1", "s_b", run(ys, s1, yb, sb, FALSE, partial, seed)); seed <- seed + 1
}
out <- list(pROC_version = as.character(packageVersion("pROC")), R_version = R.version.string,
            roc = "roc(y, s, levels = c(0, 1), direction = '<', quiet = TRUE[, partial.auc = c(1, 0.8), partial.auc.focus = 'specificity', partial.auc.correct = FALSE])",
            test = "set.seed(seed); roc.test(r1, r2, method = 'bootstrap', boot.n = boot_n, paired = paired)",
            datasets = datasets, cases = cases)
write_json(out, "tests/golden/proc_bootstrap.json", auto_unbox = TRUE, pretty = TRUE, json_verbatim = TRUE,
           digits = NA)
