# Golden values from R pROC for one-sided DeLong tests (paired and unpaired).
# Usage (from the project root): Rscript tests/golden/make_proc_one_sided.R
# Reads tests/golden/inputs_stats.json (written by make_stats_inputs.py), writes
# tests/golden/proc_one_sided.json. ROCs as in make_proc_stats.R: levels = c(0, 1),
# direction = "<". The exact calls are recorded under "calls"; a statistic or p-value
# that is not finite (or a call that errors) is stored as null.
suppressPackageStartupMessages({library(pROC); library(jsonlite)})

inp <- fromJSON("tests/golden/inputs_stats.json", simplifyVector = FALSE)
calls <- list(
  roc = "roc(y, s, levels = c(0, 1), direction = '<', quiet = TRUE)",
  paired = "roc.test(r1, r2, method = 'delong', paired = TRUE, alternative = alt)",
  unpaired = "roc.test(r1, rb, method = 'delong', paired = FALSE, alternative = alt)"
)
mkroc <- function(y, s) roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
num <- function(v) if (length(v) == 1 && is.finite(v)) sprintf("%.17g", v) else "null"
fields <- function(t) {
  if (inherits(t, "try-error")) return(list(statistic = num(NA), p_value = num(NA)))
  out <- list(statistic = num(unname(as.numeric(t$statistic))), p_value = num(as.numeric(t$p.value)))
  if (!is.null(t$parameter)) out$parameter <- num(unname(as.numeric(t$parameter)))
  lapply(out, function(x) structure(x, class = "json"))
}
cases <- list()
for (cs in inp) {
  y <- as.integer(unlist(cs$y)); yb <- as.integer(unlist(cs$y_b))
  r1 <- mkroc(y, as.numeric(unlist(cs$s1))); r2 <- mkroc(y, as.numeric(unlist(cs$s2)))
  rb <- mkroc(yb, as.numeric(unlist(cs$s_b)))
  res <- list(name = cs$name)
  for (alt in c("greater", "less")) {
    res[[paste0("paired_", alt)]] <- fields(suppressWarnings(try(
      roc.test(r1, r2, method = "delong", paired = TRUE, alternative = alt), silent = TRUE)))
    res[[paste0("unpaired_", alt)]] <- fields(suppressWarnings(try(
      roc.test(r1, rb, method = "delong", paired = FALSE, alternative = alt), silent = TRUE)))
  }
  cases[[length(cases) + 1]] <- res
}
out <- list(pROC_version = as.character(packageVersion("pROC")), R_version = R.version.string,
            input = "tests/golden/inputs_stats.json", calls = calls, cases = cases)
write_json(out, "tests/golden/proc_one_sided.json", auto_unbox = TRUE, pretty = TRUE, json_verbatim = TRUE)
