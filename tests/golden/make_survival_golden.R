# Golden values for censored concordance (issue: censored times), from R survival.
# Usage (from the project root): Rscript tests/golden/make_survival_golden.R
# Self-contained and seeded: it draws the datasets and stores them with R's results in
# tests/golden/survival_golden.json, so the tests need no R.
#
# Conventions (R survival 3.5's concordance, "reverse = TRUE": a higher risk means an
# earlier event): a pair (i, j) is comparable when t_i < t_j and i had an event, or when
# t_i == t_j and i had an event and j was censored (an event before a censoring at the same
# time); pairs of two events at the same time are not comparable ("tied.y"). Comparable pairs
# count 1 when risk_i > risk_j ("concordant"), 0 when risk_i < risk_j ("discordant"), 1/2
# when the risks tie ("tied.x"). With weights a pair counts w_i w_j; with strata only pairs
# within a stratum count. C = (concordant + tied.x / 2) / (concordant + discordant + tied.x).
# "var" is the infinitesimal jackknife: sum_k dfbeta_k^2, dfbeta_k = w_k dC/dw_k (with
# cluster: the dfbeta summed by cluster first). Uno's weighting: timewt = "n/G2" (each
# comparable pair weighted by 1 / G(t_i)^2 with G the Kaplan-Meier survival of the
# censoring, n/G2 as survival scales it) and ymax (pairs with t_i > ymax dropped).
suppressPackageStartupMessages({library(survival); library(jsonlite)})

set.seed(20261205)

draw <- function(n, ties_time, ties_risk, censor, weighted) {
  tt <- rexp(n, 0.1)
  cc <- rexp(n, 0.1 * censor / (1 - censor))
  time <- pmin(tt, cc)
  status <- as.integer(tt <= cc)
  risk <- -log(tt) + rnorm(n)
  if (ties_time) time <- ceiling(time)
  if (ties_risk) risk <- round(risk, 1)
  w <- if (weighted) sample(1:3, n, replace = TRUE) else rep(1, n)
  list(time = time, status = status, risk = risk, weight = w,
       strata = sample(1:3, n, replace = TRUE), cluster = sample(1:max(2, n %/% 4), n, replace = TRUE))
}

run <- function(d, weighted, strata, cluster, uno, ymax) {
  args <- list(object = if (strata) Surv(time, status) ~ risk + strata(strata) else Surv(time, status) ~ risk,
               data = as.data.frame(d[c("time", "status", "risk", "strata")]), reverse = TRUE, influence = 3)
  if (weighted) args$weights <- d$weight
  if (cluster) args$cluster <- d$cluster
  if (uno) { args$timewt <- "n/G2"; args$ymax <- ymax }
  f <- do.call(concordance, args)
  count <- if (is.matrix(f$count)) lapply(seq_len(nrow(f$count)), function(i) as.list(f$count[i, ])) else as.list(f$count)
  list(concordance = unname(f$concordance), var = unname(f$var), count = count,
       dfbeta = unname(as.numeric(f$dfbeta)))
}

cases <- list()
specs <- list(
  list(name = "untied", n = 60, tt = FALSE, tr = FALSE, cens = 0.3, w = FALSE),
  list(name = "tied_times", n = 80, tt = TRUE, tr = FALSE, cens = 0.3, w = FALSE),
  list(name = "tied_both", n = 80, tt = TRUE, tr = TRUE, cens = 0.6, w = FALSE),
  list(name = "weighted_tied", n = 80, tt = TRUE, tr = TRUE, cens = 0.3, w = TRUE),
  list(name = "larger", n = 1500, tt = TRUE, tr = TRUE, cens = 0.3, w = FALSE)
)
for (s in specs) {
  d <- draw(s$n, s$tt, s$tr, s$cens, s$w)
  ymax <- unname(quantile(d$time[d$status == 1], 0.8))
  res <- list()
  for (v in list(c(FALSE, FALSE, FALSE), c(TRUE, FALSE, FALSE), c(FALSE, TRUE, FALSE), c(FALSE, FALSE, TRUE))) {
    key <- paste0(c("strata", "cluster", "uno")[v], collapse = "+")
    if (key == "") key <- "harrell"
    res[[key]] <- run(d, s$w, v[1], v[2], v[3], ymax)
  }
  cases[[s$name]] <- list(inputs = d, ymax = ymax, weighted = s$w, results = res)
}

out <- list(
  producer = paste0("R ", R.version$major, ".", R.version$minor, ", survival ", as.character(packageVersion("survival"))),
  call = paste("concordance(Surv(time, status) ~ risk [+ strata(strata)], reverse = TRUE, influence = 3",
               "[, weights = weight] [, cluster = cluster] [, timewt = 'n/G2', ymax = ymax])"),
  cases = cases)
writeLines(toJSON(out, digits = NA, auto_unbox = TRUE), "tests/golden/survival_golden.json")
cat("wrote tests/golden/survival_golden.json\n")
