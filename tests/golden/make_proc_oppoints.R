# Golden values from R pROC for operating points (coords), the optimal cut (coords "best")
# and the power / sample size of AUC studies (power.roc.test).
# Usage (from the project root): Rscript tests/golden/make_proc_oppoints.R
# Reads tests/golden/inputs_stats.json (written by make_stats_inputs.py), writes
# tests/golden/proc_oppoints.json. Every ROC is built with levels = c(0, 1),
# direction = "<" (controls = 0, cases = 1, higher score = case). The exact calls are
# recorded under "calls". Numbers are written with 17 significant digits; NA/NaN/Inf as
# the strings "NA", "NaN", "Inf", "-Inf".
suppressPackageStartupMessages({library(pROC); library(jsonlite)})

inp <- fromJSON("tests/golden/inputs_stats.json", simplifyVector = FALSE)
ret <- c("threshold", "sensitivity", "specificity", "precision")
calls <- list(
  roc = "roc(y, s, levels = c(0, 1), direction = '<', quiet = TRUE)",
  by_specificity = "coords(r, x = sp, input = 'specificity', ret = c('threshold', 'sensitivity', 'specificity', 'precision'), transpose = FALSE)",
  by_sensitivity = "coords(r, x = se, input = 'sensitivity', ret = ..., transpose = FALSE)",
  by_threshold = "coords(r, x = thr, input = 'threshold', ret = ..., transpose = FALSE)",
  youden = "coords(r, 'best', best.method = 'youden', ret = c('threshold', 'sensitivity', 'specificity'), transpose = FALSE)",
  closest_topleft = "coords(r, 'best', best.method = 'closest.topleft', ret = c('threshold', 'sensitivity', 'specificity'), transpose = FALSE)",
  youden_weighted = "coords(r, 'best', best.method = 'youden', best.weights = c(2, 0.2), ret = ..., transpose = FALSE)",
  closest_topleft_weighted = "coords(r, 'best', best.method = 'closest.topleft', best.weights = c(0.5, 0.3), ret = ..., transpose = FALSE)",
  power_numeric = "power.roc.test(auc = auc, ncases = ncases, ncontrols = ncontrols, kappa = kappa, sig.level = sig.level, power = power, alternative = alternative)",
  power_binormal = "power.roc.test(list(A1 = qnorm(auc1) * sqrt(1 + B1^2), B1 = B1, A2 = qnorm(auc2) * sqrt(1 + B2^2), B2 = B2, rn = rn, ra = ra, delta = auc1 - auc2), ncases = ..., ncontrols = ..., kappa = ..., sig.level = ..., power = ..., alternative = ...)"
)
num <- function(v) {
  v <- as.numeric(v)
  sapply(v, function(x) if (is.na(x) && !is.nan(x)) "NA" else if (is.nan(x)) "NaN"
         else if (is.infinite(x)) (if (x > 0) "Inf" else "-Inf") else sprintf("%.17g", x))
}
tab <- function(res) lapply(as.data.frame(res), num)
mkroc <- function(y, s) roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)

cases <- list()
for (cs in inp) {
  y <- as.integer(unlist(cs$y))
  if (length(unique(y)) < 2) next
  for (key in c("s1", "s2")) {
    s <- as.numeric(unlist(cs[[key]]))
    r <- mkroc(y, s)
    sp_on <- unique(r$specificities)
    sp <- sort(unique(c(0, 0.05, 0.1, 0.25, 0.5, 0.8, 0.9, 0.95, 0.99, 1, sp_on[seq(1, length(sp_on), length.out = min(6, length(sp_on)))])))
    se_on <- unique(r$sensitivities)
    se <- sort(unique(c(0, 0.05, 0.1, 0.25, 0.5, 0.8, 0.9, 0.95, 0.99, 1, se_on[seq(1, length(se_on), length.out = min(6, length(se_on)))])))
    thr <- unique(c(r$thresholds, sort(unique(s))[seq(1, length(unique(s)), length.out = min(5, length(unique(s))))]))
    res <- list(name = cs$name, score = key,
                specificity = num(sp), sensitivity = num(se), thresholds = num(thr),
                by_specificity = tab(coords(r, x = sp, input = "specificity", ret = ret, transpose = FALSE)),
                by_sensitivity = tab(coords(r, x = se, input = "sensitivity", ret = ret, transpose = FALSE)),
                by_threshold = tab(coords(r, x = thr, input = "threshold", ret = ret, transpose = FALSE)),
                youden = tab(coords(r, "best", best.method = "youden", ret = ret[1:3], transpose = FALSE)),
                closest_topleft = tab(coords(r, "best", best.method = "closest.topleft", ret = ret[1:3], transpose = FALSE)),
                youden_weighted = tab(coords(r, "best", best.method = "youden", best.weights = c(2, 0.2), ret = ret[1:3], transpose = FALSE)),
                closest_topleft_weighted = tab(coords(r, "best", best.method = "closest.topleft", best.weights = c(0.5, 0.3), ret = ret[1:3], transpose = FALSE)))
    cases[[length(cases) + 1]] <- res
  }
}

nul <- function(x) if (is.null(x)) "null" else x
power_cases <- list()
numeric_designs <- list(
  list(auc = 0.8, ncases = 20, ncontrols = NULL, kappa = 1, sig.level = 0.05, power = NULL, alternative = "two.sided"),
  list(auc = 0.8, ncases = 20, ncontrols = 50, kappa = 1, sig.level = 0.05, power = NULL, alternative = "one.sided"),
  list(auc = 0.65, ncases = 120, ncontrols = NULL, kappa = 2.5, sig.level = 0.01, power = NULL, alternative = "two.sided"),
  list(auc = 0.8, ncases = NULL, ncontrols = NULL, kappa = 1, sig.level = 0.05, power = 0.9, alternative = "two.sided"),
  list(auc = 0.72, ncases = NULL, ncontrols = NULL, kappa = 3, sig.level = 0.05, power = 0.8, alternative = "one.sided"),
  list(auc = 0.6, ncases = NULL, ncontrols = NULL, kappa = 0.5, sig.level = 0.1, power = 0.95, alternative = "two.sided"),
  list(auc = 0.8, ncases = 20, ncontrols = 20, kappa = 1, sig.level = NULL, power = 0.9, alternative = "two.sided"),
  list(auc = 0.7, ncases = 60, ncontrols = 90, kappa = 1, sig.level = NULL, power = 0.8, alternative = "one.sided"),
  list(auc = NULL, ncases = 20, ncontrols = 20, kappa = 1, sig.level = 0.05, power = 0.9, alternative = "two.sided"),
  list(auc = NULL, ncases = 100, ncontrols = 300, kappa = 1, sig.level = 0.05, power = 0.8, alternative = "one.sided")
)
for (d in numeric_designs) {
  # power.roc.test dispatches on its first argument: a NULL auc is left out (its default).
  p <- do.call(power.roc.test, if (is.null(d$auc)) d[names(d) != "auc"] else d)
  power_cases[[length(power_cases) + 1]] <- list(
    kind = "numeric", args = lapply(d, function(x) if (is.null(x)) NULL else x),
    ncases = num(p$ncases), ncontrols = num(p$ncontrols), auc = num(p$auc),
    sig.level = num(p$sig.level), power = num(p$power))
}
binormal_designs <- list(
  list(auc1 = 0.8, auc2 = 0.75, B1 = 1.1, B2 = 0.9, rn = 0.4, ra = 0.5, ncases = 100, ncontrols = 100, kappa = 1, sig.level = 0.05, power = NULL, alternative = "two.sided"),
  list(auc1 = 0.8, auc2 = 0.75, B1 = 1.1, B2 = 0.9, rn = 0.4, ra = 0.5, ncases = NULL, ncontrols = NULL, kappa = 1.5, sig.level = 0.05, power = 0.8, alternative = "two.sided"),
  list(auc1 = 0.9, auc2 = 0.8, B1 = 1, B2 = 1, rn = 0.6, ra = 0.3, ncases = NULL, ncontrols = NULL, kappa = 1, sig.level = 0.05, power = 0.9, alternative = "one.sided"),
  list(auc1 = 0.7, auc2 = 0.85, B1 = 0.8, B2 = 1.3, rn = 0, ra = 0, ncases = 50, ncontrols = 150, kappa = 1, sig.level = 0.05, power = NULL, alternative = "two.sided"),
  list(auc1 = 0.85, auc2 = 0.8, B1 = 1, B2 = 1.2, rn = 0.5, ra = 0.5, ncases = 200, ncontrols = 200, kappa = 1, sig.level = NULL, power = 0.8, alternative = "two.sided")
)
for (d in binormal_designs) {
  pars <- list(A1 = qnorm(d$auc1) * sqrt(1 + d$B1^2), B1 = d$B1, A2 = qnorm(d$auc2) * sqrt(1 + d$B2^2), B2 = d$B2,
               rn = d$rn, ra = d$ra, delta = d$auc1 - d$auc2)
  p <- power.roc.test(pars, ncases = d$ncases, ncontrols = d$ncontrols, kappa = d$kappa, sig.level = d$sig.level,
                      power = d$power, alternative = d$alternative)
  power_cases[[length(power_cases) + 1]] <- list(
    kind = "binormal", args = d,
    ncases = num(p$ncases), ncontrols = num(p$ncontrols), sig.level = num(p$sig.level), power = num(p$power))
}

# Designs from a pilot sample: power.roc.test on roc objects (one curve: the numeric method
# with the pilot's AUC; two paired curves: method = "delong").
pilot_cases <- list()
for (cs in inp) {
  y <- as.integer(unlist(cs$y))
  if (length(unique(y)) < 2 || cs$name %in% c("constant", "perfect_separation")) next
  r1 <- mkroc(y, as.numeric(unlist(cs$s1))); r2 <- mkroc(y, as.numeric(unlist(cs$s2)))
  if (as.numeric(auc(r1)) == as.numeric(auc(r2))) next
  for (two in c(FALSE, TRUE)) {
    for (alt in c("two.sided", "one.sided")) {
      settings <- list(list(sig.level = 0.05, power = NULL, kappa = NULL),
                       list(sig.level = NULL, power = 0.8, kappa = NULL),
                       list(sig.level = 0.05, power = 0.9, kappa = NULL),
                       list(sig.level = 0.01, power = 0.8, kappa = 2))
      for (st in settings) {
        p <- if (two) power.roc.test(r1, r2, sig.level = st$sig.level, power = st$power, kappa = st$kappa,
                                     alternative = alt, method = "delong")
             else power.roc.test(r1, sig.level = st$sig.level, power = st$power, kappa = st$kappa,
                                 alternative = alt)
        pilot_cases[[length(pilot_cases) + 1]] <- list(
          name = cs$name, two = two, alternative = alt, args = st,
          ncases = num(p$ncases), ncontrols = num(p$ncontrols), sig.level = num(p$sig.level), power = num(p$power))
      }
    }
  }
}
calls$pilot <- "power.roc.test(r1, sig.level = , power = , kappa = , alternative = ) or power.roc.test(r1, r2, ..., method = 'delong')"

out <- list(pROC_version = as.character(packageVersion("pROC")), R_version = R.version.string,
            input = "tests/golden/inputs_stats.json", calls = calls, cases = cases, power = power_cases,
            pilot = pilot_cases)
write_json(out, "tests/golden/proc_oppoints.json", auto_unbox = TRUE, pretty = TRUE, null = "null", digits = NA)
