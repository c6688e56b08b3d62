# Golden values from base R for the per-bin intervals of rankwise.calibration_curve.
# Usage (from the project root): Rscript tests/golden/make_binom_intervals.R
# Writes tests/golden/binom_intervals.json.
#   Wilson score interval: prop.test(x, n, conf.level = level, correct = FALSE)$conf.int
#     (the score test without continuity correction inverts to Wilson's interval).
#   Jeffreys interval: qbeta(c(a, 1 - a), x + 1/2, n - x + 1/2), a = (1 - level) / 2,
#     lower end 0 when x = 0 and upper end 1 when x = n; n need not be an integer
#     (an effective sample size).
suppressPackageStartupMessages(library(jsonlite))
num <- function(v) structure(sprintf("%.17g", v), class = "json")
cases <- list()
for (level in c(0.9, 0.95, 0.99)) {
  for (n in c(1, 2, 5, 10, 37)) {
    for (x in unique(c(0, 1, floor(n / 3), floor(n / 2), n - 1, n))) {
      if (x < 0 || x > n) next
      ci <- suppressWarnings(prop.test(x, n, conf.level = level, correct = FALSE))$conf.int
      a <- (1 - level) / 2
      jl <- if (x == 0) 0 else qbeta(a, x + 0.5, n - x + 0.5)
      ju <- if (x == n) 1 else qbeta(1 - a, x + 0.5, n - x + 0.5)
      cases[[length(cases) + 1]] <- list(x = num(x), n = num(n), level = num(level),
        wilson = list(num(ci[1]), num(ci[2])), jeffreys = list(num(jl), num(ju)))
    }
  }
}
# Jeffreys at non-integer sizes (weighted bins: x = share * effective size).
for (cs in list(c(2.5, 7.25), c(0.75, 3.5), c(11.125, 12.5))) {
  x <- cs[1]; n <- cs[2]; a <- 0.025
  cases[[length(cases) + 1]] <- list(x = num(x), n = num(n), level = num(0.95),
    jeffreys = list(num(qbeta(a, x + 0.5, n - x + 0.5)), num(qbeta(1 - a, x + 0.5, n - x + 0.5))))
}
out <- list(R_version = R.version.string,
            calls = list(wilson = "prop.test(x, n, conf.level = level, correct = FALSE)$conf.int",
                         jeffreys = "qbeta(c(a, 1 - a), x + 0.5, n - x + 0.5), a = (1 - level) / 2; 0 at x = 0, 1 at x = n"),
            cases = cases)
write_json(out, "tests/golden/binom_intervals.json", auto_unbox = TRUE, pretty = TRUE, json_verbatim = TRUE)
