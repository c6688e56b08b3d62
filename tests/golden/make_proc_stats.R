# Golden values from R pROC for AUC inference (DeLong): variance, CI, covariance, tests.
# Usage (from the project root): Rscript tests/golden/make_proc_stats.R
# Reads tests/golden/inputs_stats.json (written by make_stats_inputs.py),
# writes tests/golden/proc_stats.json.
# Every ROC is built with levels = c(0, 1), direction = "<" (controls = 0, cases = 1,
# higher score = case), so pROC infers nothing. The exact calls are recorded under "calls".
# A call that errors, or returns NA/NaN/Inf, is stored as null, with the condition text (or
# "pROC returned ...") under "<key>_error"; warnings from a call go under "<key>_warning"
# (test results: under "warning"/"error" inside the test's object).
suppressPackageStartupMessages({library(pROC); library(jsonlite)})

inp <- fromJSON("tests/golden/inputs_stats.json", simplifyVector = FALSE)

calls <- list(
  roc = "roc(y, s, levels = c(0, 1), direction = '<', quiet = TRUE)",
  auc = "as.numeric(auc(r))",
  var = "var(r, method = 'delong')",
  ci95 = "as.numeric(ci.auc(r, method = 'delong', conf.level = 0.95))  # c(lower, auc, upper)",
  ci90 = "as.numeric(ci.auc(r, method = 'delong', conf.level = 0.9))  # c(lower, auc, upper)",
  cov = "cov(r1, r2, method = 'delong')",
  paired = "roc.test(r1, r2, method = 'delong', paired = TRUE)  # alternative = 'two.sided' (default)",
  unpaired = "roc.test(r1, rb, method = 'delong', paired = FALSE)  # alternative = 'two.sided' (default)"
)

# Evaluate expr; return list(value, error, warning) with warnings collected, not fatal.
safe <- function(expr) {
  warns <- character(0)
  val <- withCallingHandlers(
    tryCatch(expr, error = function(e) structure(list(msg = conditionMessage(e)), class = "safe_err")),
    warning = function(w) {
      warns <<- c(warns, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  if (inherits(val, "safe_err")) return(list(value = NULL, error = val$msg, warning = warns))
  list(value = val, error = NULL, warning = warns)
}

# Store a numeric result under key in lst, with null + "<key>_error" for errors or NA/NaN/Inf.
put <- function(lst, key, res, f = as.numeric) {
  if (!is.null(res$error)) {
    lst[key] <- list(NULL)
    lst[[paste0(key, "_error")]] <- res$error
  } else {
    v <- f(res$value)
    if (length(v) == 0 || all(!is.finite(v))) {
      lst[key] <- list(NULL)
      lst[[paste0(key, "_error")]] <- paste("pROC returned", paste(format(v), collapse = " "))
    } else {
      lst[[key]] <- v  # a partly non-finite vector keeps its finite entries; the rest -> null
      if (any(!is.finite(v)))
        lst[[paste0(key, "_error")]] <- paste("pROC returned", paste(format(v), collapse = " "))
    }
  }
  if (length(res$warning) > 0)
    lst[[paste0(key, "_warning")]] <- paste(unique(res$warning), collapse = " | ")
  lst
}

mkroc <- function(y, s) roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)

one_curve <- function(r) {
  out <- list()
  out <- put(out, "auc", safe(auc(r)))
  out <- put(out, "var", safe(var(r, method = "delong")))
  out <- put(out, "ci95", safe(ci.auc(r, method = "delong", conf.level = 0.95)))
  out <- put(out, "ci90", safe(ci.auc(r, method = "delong", conf.level = 0.9)))
  out
}

test_fields <- function(res) {
  out <- list()
  if (!is.null(res$error)) {
    out["statistic"] <- list(NULL)
    out["p_value"] <- list(NULL)
    out[["error"]] <- res$error
  } else {
    t <- res$value
    st <- unname(as.numeric(t$statistic))
    out[["statistic_name"]] <- names(t$statistic)
    fin <- function(key, v) {
      if (!is.finite(v)) {
        out[key] <<- list(NULL)
        out[[paste0(key, "_error")]] <<- paste("pROC returned", format(v))
      } else out[[key]] <<- v
    }
    fin("statistic", st)
    fin("p_value", as.numeric(t$p.value))
    if (!is.null(t$parameter)) {
      out[["parameter_name"]] <- names(t$parameter)
      fin("parameter", unname(as.numeric(t$parameter)))
    }
    out[["alternative"]] <- t$alternative
    out[["method"]] <- t$method
    out[["estimate"]] <- unname(as.numeric(t$estimate))
    if (!is.null(t$conf.int)) {
      out[["conf_int"]] <- as.numeric(t$conf.int)
      out[["conf_level"]] <- attr(t$conf.int, "conf.level")
    }
  }
  if (length(res$warning) > 0) out[["warning"]] <- paste(unique(res$warning), collapse = " | ")
  out
}

cases <- list()
for (cs in inp) {
  y <- as.integer(unlist(cs$y)); s1 <- as.numeric(unlist(cs$s1)); s2 <- as.numeric(unlist(cs$s2))
  yb <- as.integer(unlist(cs$y_b)); sb <- as.numeric(unlist(cs$s_b))
  r1 <- mkroc(y, s1); r2 <- mkroc(y, s2); rb <- mkroc(yb, sb)
  res <- list(name = cs$name, n = length(y), n_pos = sum(y == 1), n_neg = sum(y == 0),
              n_b = length(yb), n_pos_b = sum(yb == 1), n_neg_b = sum(yb == 0))
  res$s1 <- one_curve(r1)
  res$s2 <- one_curve(r2)
  res$b <- one_curve(rb)
  res <- put(res, "cov", safe(cov(r1, r2, method = "delong")))
  res$paired <- test_fields(safe(roc.test(r1, r2, method = "delong", paired = TRUE)))
  res$unpaired <- test_fields(safe(roc.test(r1, rb, method = "delong", paired = FALSE)))
  cases[[length(cases) + 1]] <- res
}

out <- list(pROC_version = as.character(packageVersion("pROC")),
            R_version = R.version.string,
            jsonlite_version = as.character(packageVersion("jsonlite")),
            input = "tests/golden/inputs_stats.json",
            calls = calls,
            cases = cases)
# jsonlite prints at most 15 significant digits even with digits = NA, which does not
# round-trip every double. So every double is first turned into verbatim JSON text with
# sprintf("%.17g") (exact round-trip; NA/NaN -> null); vectors of length > 1 stay arrays.
exact <- function(x) {
  if (is.list(x)) return(lapply(x, exact))
  if (is.double(x)) {
    txt <- ifelse(is.finite(x), sprintf("%.17g", x), "null")
    return(structure(if (length(x) == 1) txt else paste0("[", paste(txt, collapse = ", "), "]"),
                     class = "json"))
  }
  x
}
write_json(exact(out), "tests/golden/proc_stats.json", digits = NA, auto_unbox = TRUE, pretty = TRUE,
           na = "null", null = "null", json_verbatim = TRUE)
