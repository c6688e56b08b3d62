# Golden values from R pROC for tests/test_golden.py.
# Usage (from the project root): Rscript tests/golden/make_proc.R
# Reads tests/golden/inputs_sklearn.json, writes tests/golden/proc.json.
# Every call uses levels = c(0, 1), direction = "<" (controls < cases: higher score = positive),
# so pROC infers nothing.
suppressPackageStartupMessages({library(pROC); library(jsonlite)})
inp <- fromJSON("tests/golden/inputs_sklearn.json", simplifyVector = TRUE)
out <- list(pROC_version = as.character(packageVersion("pROC")),
            R_version = R.version.string, cases = list())
for (name in names(inp$cases)) {
  cs <- inp$cases[[name]]
  r <- roc(cs$y, cs$s, levels = c(0, 1), direction = "<", quiet = TRUE)
  res <- list()
  res[["auc(r)"]] <- as.numeric(auc(r))
  for (m in c(0.05, 0.1, 0.3, 0.5)) {
    res[[sprintf("auc(r, partial.auc=c(1, %s), partial.auc.focus='specificity', partial.auc.correct=FALSE)", 1 - m)]] <-
      as.numeric(auc(r, partial.auc = c(1, 1 - m), partial.auc.focus = "specificity", partial.auc.correct = FALSE))
    res[[sprintf("auc(r, partial.auc=c(1, %s), partial.auc.focus='specificity', partial.auc.correct=TRUE)", 1 - m)]] <-
      as.numeric(auc(r, partial.auc = c(1, 1 - m), partial.auc.focus = "specificity", partial.auc.correct = TRUE))
  }
  res[["var(r, method='delong')"]] <- var(r, method = "delong")
  res[["ci.auc(r, method='delong', conf.level=0.95)"]] <- as.numeric(ci.auc(r, method = "delong", conf.level = 0.95))
  out$cases[[name]] <- res
}
writeLines(toJSON(out, digits = NA, auto_unbox = TRUE, pretty = TRUE), "tests/golden/proc.json")
