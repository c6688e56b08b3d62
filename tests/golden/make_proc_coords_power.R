# Golden values from R pROC for coordinates of the ROC curve (coords, every 'ret'), their
# bootstrap intervals (ci.coords, compared in law) and the power / sample size of AUC
# studies designed from observed curves (power.roc.test on two roc objects with
# method = "obuchowski", full and partial AUC; the binormal parameter list with a partial
# range; method = "bootstrap", compared in law).
# Usage (from the project root): Rscript tests/golden/make_proc_coords_power.R
# Reads tests/golden/inputs_stats.json (written by make_stats_inputs.py), writes
# tests/golden/proc_coords_power.json. Every ROC is built with levels = c(0, 1),
# direction = "<" (controls = 0, cases = 1, higher score = case). Numbers are written with
# 17 significant digits; NA/NaN/Inf as the strings "NA", "NaN", "Inf", "-Inf".
suppressPackageStartupMessages({library(pROC); library(jsonlite)})

inp <- fromJSON("tests/golden/inputs_stats.json", simplifyVector = FALSE)
num <- function(v) {
  v <- as.numeric(v)
  sapply(v, function(x) if (is.na(x) && !is.nan(x)) "NA" else if (is.nan(x)) "NaN"
         else if (is.infinite(x)) (if (x > 0) "Inf" else "-Inf") else sprintf("%.17g", x))
}
tab <- function(res) lapply(as.data.frame(res, check.names = FALSE), num)
mkroc <- function(y, s, ...) roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE, ...)
all_ret <- c("threshold", "sensitivity", "specificity", "accuracy", "tn", "tp", "fn", "fp", "npv", "ppv",
             "tpr", "tnr", "fpr", "fnr", "fdr", "1-specificity", "1-sensitivity", "1-accuracy", "1-npv",
             "1-ppv", "precision", "recall", "youden", "closest.topleft")

calls <- list(
  roc = "roc(y, s, levels = c(0, 1), direction = '<', quiet = TRUE)",
  best = "coords(r, 'best', best.method = m, best.weights = w, ret = <all 24 coordinates>, transpose = FALSE)",
  by_threshold = "coords(r, x = thr, input = 'threshold', ret = <all>, transpose = FALSE)",
  by_specificity = "coords(r, x = sp, input = 'specificity', ret = <all>, transpose = FALSE)",
  by_sensitivity = "coords(r, x = se, input = 'sensitivity', ret = <all>, transpose = FALSE)",
  ci_best = "ci.coords(r, 'best', best.method = 'youden', best.policy = 'random', ret = c('threshold', 'sensitivity', 'specificity', 'ppv'), boot.n = 4000)",
  ci_specificity = "ci.coords(r, x = c(0.5, 0.8, 0.9), input = 'specificity', ret = c('sensitivity', 'accuracy', 'npv', 'ppv'), boot.n = 4000)",
  ci_threshold = "ci.coords(r, x = thr, input = 'threshold', ret = c('threshold', 'sensitivity', 'specificity', 'precision'), boot.n = 4000)",
  power_obuchowski = "power.roc.test(r1, r2, method = 'obuchowski', sig.level = , power = , kappa = , alternative = )",
  power_obuchowski_partial = "r = roc(..., partial.auc = c(1, 1 - max_fpr), partial.auc.focus = 'specificity'); power.roc.test(r1, r2, method = 'obuchowski', ...)",
  power_params_partial = "power.roc.test(list(A1, B1, A2, B2, rn, ra, delta, FPR11, FPR12, FPR21, FPR22), ncases = , ncontrols = , kappa = , sig.level = , power = , alternative = )",
  power_bootstrap = "power.roc.test(r1, r2, method = 'bootstrap', boot.n = 4000, sig.level = 0.05) (power), repeated with power = 0.9 (ncases)"
)

coords_cases <- list()
for (cs in inp) {
  y <- as.integer(unlist(cs$y))
  if (length(unique(y)) < 2) next
  for (key in c("s1", "s2")) {
    s <- as.numeric(unlist(cs[[key]]))
    if (length(unique(s)) < 2) next
    r <- mkroc(y, s)
    sp_on <- unique(r$specificities)
    sp <- sort(unique(c(0, 0.1, 0.5, 0.8, 0.9, 0.95, 1, sp_on[seq(1, length(sp_on), length.out = min(4, length(sp_on)))])))
    se_on <- unique(r$sensitivities)
    se <- sort(unique(c(0, 0.1, 0.5, 0.8, 0.9, 0.95, 1, se_on[seq(1, length(se_on), length.out = min(4, length(se_on)))])))
    us <- sort(unique(s))
    thr <- unique(c(min(us) - 1, us[seq(1, length(us), length.out = min(5, length(us)))], max(us) + 1))
    best <- list()
    for (m in c("youden", "closest.topleft")) for (w in list(c(1, 0.5), c(2, 0.2), c(0.5, 0.3))) {
      best[[length(best) + 1]] <- list(method = m, weights = w,
        table = tab(coords(r, "best", best.method = m, best.weights = w, ret = all_ret, transpose = FALSE)))
    }
    coords_cases[[length(coords_cases) + 1]] <- list(
      name = cs$name, score = key, specificity = num(sp), sensitivity = num(se), thresholds = num(thr),
      best = best,
      by_threshold = tab(coords(r, x = thr, input = "threshold", ret = all_ret, transpose = FALSE)),
      by_specificity = tab(coords(r, x = sp, input = "specificity", ret = all_ret, transpose = FALSE)),
      by_sensitivity = tab(coords(r, x = se, input = "sensitivity", ret = all_ret, transpose = FALSE)))
  }
}

# Bootstrap intervals, in law: 4000 resamples (Monte Carlo error of a 2.5% quantile a few
# thousandths for these sizes).
set.seed(20261206)
ci_cases <- list()
qtab <- function(ci) lapply(ci, function(m) list(low = num(m[, 1]), median = num(m[, 2]), high = num(m[, 3])))
for (nm in c("continuous_large", "mixed_ties")) {
  cs <- Filter(function(c) c$name == nm, inp)[[1]]
  y <- as.integer(unlist(cs$y)); s <- as.numeric(unlist(cs$s1))
  r <- mkroc(y, s)
  thr <- as.numeric(quantile(s, c(0.3, 0.6)))
  ci_cases[[length(ci_cases) + 1]] <- list(
    name = nm, thresholds = num(thr),
    best = qtab(ci.coords(r, "best", best.method = "youden", best.policy = "random",
                          ret = c("threshold", "sensitivity", "specificity", "ppv"), boot.n = 4000, progress = "none")),
    specificity = qtab(ci.coords(r, x = c(0.5, 0.8, 0.9), input = "specificity",
                                 ret = c("sensitivity", "accuracy", "npv", "ppv"), boot.n = 4000, progress = "none")),
    threshold = qtab(ci.coords(r, x = thr, input = "threshold",
                               ret = c("threshold", "sensitivity", "specificity", "precision"), boot.n = 4000,
                               progress = "none")))
}

# Power from observed curves.
nul <- function(x) if (is.null(x)) NULL else x
pw <- function(p) list(ncases = num(p$ncases), ncontrols = num(p$ncontrols), sig.level = num(p$sig.level),
                       power = num(p$power))
designs <- list(
  list(sig.level = 0.05, power = NULL, kappa = NULL, alternative = "two.sided"),
  list(sig.level = 0.05, power = NULL, kappa = NULL, alternative = "one.sided"),
  list(sig.level = 0.05, power = 0.9, kappa = NULL, alternative = "two.sided"),
  list(sig.level = 0.01, power = 0.8, kappa = 2, alternative = "one.sided"),
  list(sig.level = NULL, power = 0.8, kappa = NULL, alternative = "two.sided")
)
power_cases <- list()
for (nm in c("continuous", "continuous_large", "mixed_ties", "integer_ties")) {
  cs <- Filter(function(c) c$name == nm, inp)[[1]]
  y <- as.integer(unlist(cs$y)); s1 <- as.numeric(unlist(cs$s1)); s2 <- as.numeric(unlist(cs$s2))
  for (pa in list(NULL, c(1, 0.8), c(0.9, 0.6))) {
    if (is.null(pa)) { r1 <- mkroc(y, s1); r2 <- mkroc(y, s2) }
    else { r1 <- mkroc(y, s1, partial.auc = pa, partial.auc.focus = "specificity")
           r2 <- mkroc(y, s2, partial.auc = pa, partial.auc.focus = "specificity") }
    for (d in designs) {
      args <- c(list(r1, r2, method = "obuchowski"), d[!sapply(d, is.null)])
      if (is.null(d$sig.level)) args$sig.level <- NULL
      if (is.null(d$sig.level)) args <- c(args, list(sig.level = NULL))
      p <- tryCatch(do.call(power.roc.test, args), error = function(e) NULL)
      if (is.null(p)) next
      power_cases[[length(power_cases) + 1]] <- c(list(name = nm, partial = if (is.null(pa)) "none" else num(pa),
        auc1 = num(r1$auc), auc2 = num(r2$auc),
        design = lapply(d, function(x) if (is.null(x)) "null" else x)), pw(p))
    }
  }
}

params_cases <- list()
pars <- list(
  list(A1 = 1.2, B1 = 0.9, A2 = 0.8, B2 = 1.1, rn = 0.4, ra = 0.5, delta = 0.05, FPR11 = 0, FPR12 = 0.2, FPR21 = 0, FPR22 = 0.2),
  list(A1 = 1.5, B1 = 1.0, A2 = 1.1, B2 = 0.7, rn = 0.2, ra = 0.3, delta = 0.02, FPR11 = 0.1, FPR12 = 0.3, FPR21 = 0.1, FPR22 = 0.3),
  list(A1 = 1.2, B1 = 0.9, A2 = 0.8, B2 = 1.1, rn = 0.4, ra = 0.5, delta = 0.05)
)
for (pl in pars) for (d in list(list(ncases = 50, ncontrols = 100, sig.level = 0.05, power = NULL),
                                list(ncases = NULL, ncontrols = NULL, kappa = 1.5, sig.level = 0.05, power = 0.8),
                                list(ncases = 80, ncontrols = 80, sig.level = NULL, power = 0.8))) {
  args <- c(list(pl), d[!sapply(d, is.null)])
  if (is.null(d$power)) args <- c(args, list(power = NULL))
  if (is.null(d$sig.level)) args <- c(args, list(sig.level = NULL))
  p <- do.call(power.roc.test, args)
  params_cases[[length(params_cases) + 1]] <- c(list(params = lapply(pl, num),
    design = lapply(d, function(x) if (is.null(x)) "null" else x)), pw(p))
}

boot_cases <- list()
for (nm in c("continuous_large")) {
  cs <- Filter(function(c) c$name == nm, inp)[[1]]
  y <- as.integer(unlist(cs$y)); s1 <- as.numeric(unlist(cs$s1)); s2 <- as.numeric(unlist(cs$s2))
  r1 <- mkroc(y, s1); r2 <- mkroc(y, s2)
  cv <- pROC:::covvar(r1, r2, "bootstrap", boot.n = 4000, progress = "none")
  p1 <- power.roc.test(r1, r2, method = "bootstrap", boot.n = 4000, progress = "none")
  p2 <- power.roc.test(r1, r2, method = "bootstrap", boot.n = 4000, power = 0.9, progress = "none")
  boot_cases[[length(boot_cases) + 1]] <- list(name = nm, var1 = num(cv$var1), var2 = num(cv$var2),
    cov12 = num(cv$cov12), power = num(p1$power), ncases = num(p2$ncases))
}

out <- list(versions = list(R = R.version.string, pROC = as.character(packageVersion("pROC"))), calls = calls,
            coords = coords_cases, ci = ci_cases, power = power_cases, params = params_cases,
            bootstrap = boot_cases)
writeLines(toJSON(out, auto_unbox = TRUE, null = "null", digits = NA), "tests/golden/proc_coords_power.json")
