# Golden values from R pROC 1.18.0 for smoothed ROC curves (tests/metrics/test_smooth_roc.py).
# Usage (from the project root): Rscript tests/golden/make_proc_smooth.R
# Writes tests/golden/proc_smooth.json. Takes about a minute (the bootstrap intervals).
#
# Every ROC is  r <- roc(c(controls, cases), c(rep(0, nc), rep(1, np)), ...)  with
# levels = c(0, 1) and direction = "<" (a higher score means case), so pROC infers nothing.
# For each data set and setting it stores the smoothed points as pROC returns them
# (specificities and sensitivities, the two end points (0, 1) and (1, 0) included, in
# pROC's order), auc(smooth), the partial AUCs over a few bands in both foci (raw and
# McClish-corrected, the latter with allow.invalid.partial.auc.correct = TRUE, as in the
# bootstrap, so a curve below the diagonal gives a number rather than NA), the binormal
# coefficients, the bandwidth the density method used (bw.* of the pooled scores times
# adjust), and the error message where pROC refuses. Each value carries the R call.
#
# The bootstrap intervals ci.auc(smooth(...), boot.n = 2000) (stratified, percentile) are
# random: they are checked in law, not to the digit; the seed is stored.
suppressPackageStartupMessages({library(pROC); library(jsonlite)})

data(aSAH)
set.seed(20261206)
sim_controls <- round(rnorm(70), 4)
sim_cases <- round(rnorm(45, mean = 1.1, sd = 1.6), 4)
tie_controls <- sample(1:7, 60, replace = TRUE, prob = c(8, 7, 6, 5, 3, 2, 1))
tie_cases <- sample(1:7, 40, replace = TRUE, prob = c(1, 2, 3, 4, 5, 6, 7))

sets <- list(
  list(name = "asah_s100b", controls = aSAH$s100b[aSAH$outcome == "Good"],
       cases = aSAH$s100b[aSAH$outcome == "Poor"]),
  list(name = "asah_ndka", controls = aSAH$ndka[aSAH$outcome == "Good"],
       cases = aSAH$ndka[aSAH$outcome == "Poor"]),
  list(name = "asah_wfns", controls = as.numeric(aSAH$wfns[aSAH$outcome == "Good"]),
       cases = as.numeric(aSAH$wfns[aSAH$outcome == "Poor"])),
  list(name = "sim_binormal", controls = sim_controls, cases = sim_cases),
  list(name = "tied", controls = tie_controls, cases = tie_cases),
  # below the diagonal: the cases score lower
  list(name = "reversed", controls = sim_cases[1:30], cases = sim_controls[1:25]),
  # refusals: perfectly separated (binormal: no interior point), one control (density)
  list(name = "separated", controls = c(1, 2, 3, 4), cases = c(5, 6, 7)),
  list(name = "one_control", controls = c(2.5), cases = c(1, 3, 4, 5))
)

# Settings: the text after "smooth(r, " in the call.
settings <- list(
  asah_s100b = c("method = 'binormal'", "method = 'binormal', n = 101", "method = 'binormal', n = 3",
                 "method = 'density'", "method = 'density', adjust = 2", "method = 'density', bw = 0.05",
                 "method = 'density', bw = 'nrd'", "method = 'density', n = 100",
                 "method = 'density', n = 1000", "method = 'density', kernel = 'epanechnikov'",
                 "method = 'density', kernel = 'rectangular'", "method = 'density', kernel = 'triangular'",
                 "method = 'density', kernel = 'biweight'", "method = 'density', kernel = 'cosine'",
                 "method = 'density', kernel = 'optcosine', adjust = 0.5"),
  asah_ndka = c("method = 'binormal'", "method = 'density'", "method = 'density', bw = 'nrd', adjust = 1.5"),
  asah_wfns = c("method = 'binormal'", "method = 'density'", "method = 'density', bw = 0.8"),
  sim_binormal = c("method = 'binormal'", "method = 'binormal', n = 50", "method = 'density'",
                   "method = 'density', adjust = 0.5, n = 200", "method = 'density', bw = 0.3"),
  tied = c("method = 'binormal'", "method = 'density'", "method = 'density', bw = 'nrd'"),
  reversed = c("method = 'binormal'", "method = 'density'"),
  separated = c("method = 'binormal'", "method = 'density'"),
  one_control = c("method = 'binormal'", "method = 'density'")
)

bands <- list(c(1, 0.8), c(0.9, 0.6), c(0.5, 0.45))

capture <- function(expr_text, env) {
  warns <- character(0)
  val <- withCallingHandlers(
    tryCatch(eval(parse(text = expr_text), envir = env),
             error = function(e) structure(list(msg = conditionMessage(e)), class = "safe_err")),
    warning = function(w) {
      warns <<- c(warns, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  list(value = val, warning = warns)
}

out_sets <- list()
for (st in sets) {
  env <- new.env()
  env$controls <- st$controls
  env$cases <- st$cases
  eval(parse(text = paste("r <- roc(c(rep(0, length(controls)), rep(1, length(cases))),",
                          "c(controls, cases), levels = c(0, 1), direction = '<', quiet = TRUE)")), envir = env)
  smooths <- list()
  for (arg in settings[[st$name]]) {
    call <- sprintf("smooth(r, %s)", arg)
    res <- capture(call, env)
    rec <- list(args = arg, call = call)
    if (inherits(res$value, "safe_err")) {
      rec$error <- res$value$msg
      smooths[[length(smooths) + 1]] <- rec
      next
    }
    env$sm <- res$value
    sm <- res$value
    rec$specificities <- as.numeric(sm$specificities)
    rec$sensitivities <- as.numeric(sm$sensitivities)
    rec$auc <- as.numeric(auc(sm))
    if (!is.null(sm$model)) rec$coefficients <- unname(as.numeric(coef(sm$model)))
    if (grepl("density", arg)) {
      a <- eval(parse(text = sprintf("list(%s)", arg)))
      bw <- if (is.null(a$bw)) "nrd0" else a$bw
      if (is.character(bw)) bw <- match.fun(paste("bw", bw, sep = "."))(c(st$controls, st$cases))
      rec$bw <- bw * (if (is.null(a$adjust)) 1 else a$adjust)
    }
    partial <- list()
    for (b in bands) for (focus in c("specificity", "sensitivity")) for (correct in c(FALSE, TRUE)) {
      pc <- sprintf("auc(sm, partial.auc = c(%s, %s), partial.auc.focus = '%s', partial.auc.correct = %s%s)",
                    b[1], b[2], focus, correct, if (correct) ", allow.invalid.partial.auc.correct = TRUE" else "")
      pr <- capture(pc, env)
      partial[[length(partial) + 1]] <- list(bounds = b, focus = focus, correct = correct, call = pc,
                                             value = as.numeric(pr$value))
    }
    rec$partial <- partial
    smooths[[length(smooths) + 1]] <- rec
  }
  out_sets[[length(out_sets) + 1]] <- list(name = st$name, controls = st$controls, cases = st$cases,
                                           smooths = smooths)
}

# Bootstrap intervals of the smoothed AUC (in law).
ci_specs <- list(list(set = "asah_s100b", args = "method = 'binormal'", seed = 1),
                 list(set = "asah_s100b", args = "method = 'density'", seed = 2),
                 list(set = "sim_binormal", args = "method = 'binormal'", seed = 3),
                 list(set = "sim_binormal", args = "method = 'density'", seed = 4),
                 list(set = "asah_ndka", args = "method = 'density', adjust = 2", seed = 5),
                 # a partial area (McClish-corrected, FPR in [0, 0.2]): reuse.auc = FALSE so that
                 # the partial.auc arguments reach auc()
                 list(set = "asah_s100b", args = "method = 'binormal'", seed = 6,
                      extra = "reuse.auc = FALSE, partial.auc = c(1, 0.8), partial.auc.correct = TRUE"),
                 list(set = "sim_binormal", args = "method = 'density'", seed = 7,
                      extra = "reuse.auc = FALSE, partial.auc = c(1, 0.8), partial.auc.focus = 'sensitivity'"))
cis <- list()
for (cs in ci_specs) {
  st <- Filter(function(s) s$name == cs$set, sets)[[1]]
  r <- roc(c(rep(0, length(st$controls)), rep(1, length(st$cases))), c(st$controls, st$cases),
           levels = c(0, 1), direction = "<", quiet = TRUE)
  sm <- eval(parse(text = sprintf("smooth(r, %s)", cs$args)))
  set.seed(cs$seed)
  extra <- if (is.null(cs$extra)) "" else paste0(", ", cs$extra)
  call <- sprintf("ci.auc(sm, boot.n = 2000, conf.level = 0.95, progress = 'none'%s)", extra)
  ci <- eval(parse(text = call))
  rec <- list(set = cs$set, args = cs$args, seed = cs$seed, boot_n = 2000,
              call = sprintf("ci.auc(smooth(r, %s), boot.n = 2000%s)", cs$args, extra), ci = as.numeric(ci))
  if (!is.null(cs$extra)) {
    rec$extra <- cs$extra
    rec$estimate <- as.numeric(eval(parse(text = sprintf("auc(sm, %s)", sub("reuse.auc = FALSE, ", "", cs$extra)))))
  }
  cis[[length(cis) + 1]] <- rec
}

out <- list(generator = "tests/golden/make_proc_smooth.R",
            versions = list(R = as.character(getRversion()), pROC = as.character(packageVersion("pROC"))),
            sets = out_sets, ci = cis)
writeLines(toJSON(out, auto_unbox = TRUE, digits = I(15), null = "null", na = "null"),
           "tests/golden/proc_smooth.json")
