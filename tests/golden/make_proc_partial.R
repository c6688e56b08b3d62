# Golden values from R pROC for the partial AUC over any FPR or TPR range, both foci,
# raw and McClish-standardised (tests/test_golden_new_criteria.py).
# Usage (from the project root): Rscript tests/golden/make_proc_partial.R
# Reads tests/golden/inputs_new_criteria.json (written by make_new_criteria_inputs.py),
# writes tests/golden/proc_partial.json. pROC takes no weights: only y and s are used.
#
# Every ROC is built as  r <- roc(y, s, levels = c(0, 1), direction = '<', quiet = TRUE)
# (controls = 0, cases = 1, a higher score means case), so pROC infers nothing. Each value
# is stored with the exact R expression that produced it ("call"); the expression text is
# what is evaluated (eval(parse(text = call))), so the two cannot drift apart. A call that
# errors or returns NA is stored as value null with the condition / "pROC returned NA";
# warnings are kept under "warning".
#
# What pROC 1.18.0 does (found by reading auc.roc, sort.roc, roc.utils.min.partial.auc and
# roc.utils.max.partial.auc of the installed package, and checked on the cases below;
# described here in our own words):
#
# * The curve. roc() puts one point per distinct score (thresholds halfway between
#   consecutive distinct scores, plus -Inf and +Inf), so a block of tied scores that holds
#   both cases and controls is one step that moves both coordinates: a diagonal segment.
#   Every partial area is the area under the straight-line join of those points
#   (trapezoids), never a staircase.
# * Bounds and focus. partial.auc is read in the units of the focus axis:
#   focus = "specificity": the two numbers are specificities, so an FPR range [a, b] is
#   partial.auc = c(1 - a, 1 - b), and the value is the area under the curve
#   (integral of TPR d FPR) for FPR in [a, b].
#   focus = "sensitivity": the two numbers are sensitivities (TPR) directly, a TPR range
#   [a, b] is partial.auc = c(a, b) (no "1 -"), and the value is the integral of
#   specificity d sensitivity = integral of (1 - FPR) d TPR over TPR in [a, b]: the area
#   between the curve and the right edge FPR = 1 (the curve seen with the roles of the
#   axes swapped).
# * Order of the bounds does not matter: auc.roc sorts partial.auc in decreasing order
#   first (the fixture stores one reversed call per focus and case to show it).
# * Ends of the range. When a bound is not exactly (==) one of the curve's coordinates
#   on the focus axis, pROC interpolates linearly on the segment that crosses the bound
#   and adds the trapezoid slice; when the whole range lies inside one segment, the value
#   is that segment's trapezoid between the two bounds. When a bound equals a vertex
#   coordinate exactly, the vertices at that coordinate (all of them, if the curve is
#   vertical there) are used as they are. So the value is the exact integral of the
#   piecewise-linear curve over the band; "exactly equal" is floating-point equality
#   (1 - a computed in R against 1 - k/n_controls), which only moves results by rounding.
# * McClish correction (partial.auc.correct = TRUE): (1 + (A - min) / (max - min)) / 2 with
#   max = width of the range (u - l in the focus's units) and
#   min = ((1 - u) + (1 - l)) * (u - l) / 2, the same expression for both foci (u > l
#   the sorted bounds). For the specificity focus with FPR range [a, b] (u = 1 - a,
#   l = 1 - b): min = (b^2 - a^2) / 2, the area under the diagonal. For the sensitivity
#   focus with TPR range [a, b] (u = b, l = a): min = (b - a) - (b^2 - a^2) / 2, the
#   diagonal's area in that focus. max = b - a in both. So pROC = the formulas of
#   tests/_reference_new.py.
# * Below the diagonal: if A < min (strictly) and allow.invalid.partial.auc.correct is
#   FALSE (the default), pROC warns "Partial AUC correction not defined for ROC curves
#   below the diagonal." and returns NA; with allow.invalid.partial.auc.correct = TRUE it
#   returns the same formula, a value below 0.5 (no other formula). A == min (on the
#   diagonal) gives 0.5. The test is a strict floating-point "<", so a curve lying exactly on
#   the diagonal could in principle fall below by rounding; in these fixtures the two
#   on-diagonal cases (all_tied_6, tiny_2_tied) give exactly 0.5 on every band, never NA.
#   Each corrected value is stored both ways (default, and allow.invalid... = TRUE).
suppressPackageStartupMessages({library(pROC); library(jsonlite)})

inp <- fromJSON("tests/golden/inputs_new_criteria.json", simplifyVector = FALSE)

roc_call <- "roc(y, s, levels = c(0, 1), direction = '<', quiet = TRUE)"

# Shortest decimal text that reads back as exactly x.
num <- function(x) {
  for (d in 15:17) {
    t <- sprintf("%.*g", d, x)
    if (as.numeric(t) == x) return(t)
  }
  stop("no round-trip text")
}

# Evaluate text in env; return list(value, error, warning) with warnings collected.
safe_eval <- function(text, env) {
  warns <- character(0)
  val <- withCallingHandlers(
    tryCatch(eval(parse(text = text), envir = env),
             error = function(e) structure(list(msg = conditionMessage(e)), class = "safe_err")),
    warning = function(w) {
      warns <<- c(warns, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  if (inherits(val, "safe_err")) return(list(value = NULL, error = val$msg, warning = warns))
  list(value = val, error = NULL, warning = warns)
}

record <- function(rec, res) {
  if (!is.null(res$error)) {
    rec["value"] <- list(NULL)
    rec[["error"]] <- res$error
  } else {
    v <- as.numeric(res$value)
    if (length(v) != 1 || !is.finite(v)) {
      rec["value"] <- list(NULL)
      rec[["error"]] <- paste("pROC returned", paste(format(v), collapse = " "))
    } else rec[["value"]] <- v
  }
  if (length(res$warning) > 0) rec[["warning"]] <- paste(unique(res$warning), collapse = " | ")
  rec
}

# The call for the range [lo, hi] on the focus axis (FPR for "fpr", TPR for "tpr").
pauc_call <- function(focus, lo, hi, correct, allow_invalid, reversed) {
  if (focus == "fpr") {
    b <- c(sprintf("1 - %s", num(lo)), sprintf("1 - %s", num(hi)))
    f <- "specificity"
  } else {
    b <- c(num(lo), num(hi))
    f <- "sensitivity"
  }
  if (reversed) b <- rev(b)
  txt <- sprintf("auc(r, partial.auc = c(%s, %s), partial.auc.focus = '%s', partial.auc.correct = %s",
                 b[1], b[2], f, if (correct) "TRUE" else "FALSE")
  if (allow_invalid) txt <- paste0(txt, ", allow.invalid.partial.auc.correct = TRUE")
  paste0(txt, ")")
}

ranges <- list(c(0, 0.1), c(0, 0.25), c(0, 0.5), c(0.1, 0.3), c(0.25, 0.75), c(0.5, 1),
               c(0.8, 1), c(0, 1))

cases <- list()
for (name in names(inp$cases)) {
  cs <- inp$cases[[name]]
  env <- new.env()
  env$y <- as.integer(unlist(cs$y))
  env$s <- as.numeric(unlist(cs$s))
  env$r <- eval(parse(text = roc_call), envir = env)
  out <- list(n = length(env$y), n_pos = sum(env$y == 1), n_neg = sum(env$y == 0))
  full <- record(list(call = "auc(r)"), safe_eval("auc(r)", env))
  out$auc <- full
  recs <- list()
  for (focus in c("fpr", "tpr")) {
    narrow <- as.numeric(unlist(if (focus == "fpr") cs$narrow_fpr else cs$narrow_tpr))
    rs <- c(lapply(ranges, function(x) list(range = x, kind = "standard")),
            list(list(range = narrow, kind = "narrow (inside one segment)")),
            list(list(range = c(0.1, 0.3), kind = "bounds reversed")))
    for (rg in rs) {
      reversed <- rg$kind == "bounds reversed"
      for (mode in list(c(FALSE, FALSE), c(TRUE, FALSE), c(TRUE, TRUE))) {
        call <- pauc_call(focus, rg$range[1], rg$range[2], mode[1], mode[2], reversed)
        rec <- list(focus = focus, lo = rg$range[1], hi = rg$range[2], kind = rg$kind,
                    correct = mode[1], allow_invalid = mode[2], call = call)
        recs[[length(recs) + 1]] <- record(rec, safe_eval(call, env))
      }
    }
  }
  out$partial <- recs
  cases[[name]] <- out
}

out <- list(pROC_version = as.character(packageVersion("pROC")),
            R_version = R.version.string,
            jsonlite_version = as.character(packageVersion("jsonlite")),
            input = "tests/golden/inputs_new_criteria.json",
            roc_call = paste("r <-", roc_call),
            focus_axes = list(fpr = "partial.auc.focus = 'specificity', range [lo, hi] of FPR, bounds c(1 - lo, 1 - hi)",
                              tpr = "partial.auc.focus = 'sensitivity', range [lo, hi] of TPR, bounds c(lo, hi)"),
            cases = cases)
# jsonlite prints at most 15 significant digits even with digits = NA, so every double is
# first turned into verbatim JSON text with sprintf("%.17g") (exact round-trip).
exact <- function(x) {
  if (is.list(x)) return(lapply(x, exact))
  if (is.double(x)) {
    txt <- ifelse(is.finite(x), sprintf("%.17g", x), "null")
    return(structure(if (length(x) == 1) txt else paste0("[", paste(txt, collapse = ", "), "]"),
                     class = "json"))
  }
  x
}
write_json(exact(out), "tests/golden/proc_partial.json", digits = NA, auto_unbox = TRUE, pretty = TRUE,
           na = "null", null = "null", json_verbatim = TRUE)
