# Golden values for the time-dependent AUC (issue: censored times), from R timeROC.
# Usage (from the project root): Rscript tests/golden/make_timeroc_golden.R
# Self-contained and seeded: it draws the datasets (and takes two real ones from R survival),
# stores them with timeROC's results in tests/golden/timeroc_golden.json; the tests need no R.
#
# The call, per dataset and marker (higher marker = earlier event, timeROC's convention):
#   timeROC(T = time, delta = status, marker = risk, cause = 1, weighting = "marginal",
#           times = times, iid = TRUE)
# stored: $AUC (the cumulative/dynamic AUC(t); conventions below), the i.i.d.
# standard error $inference$vect_sd_1, and for the first dataset the i.i.d. terms
# $inference$mat_iid_rep_1 (one row per subject, in timeROC's order: sorted by time, ties in
# input order; each term is n times rankwise's u_k). Two markers per
# dataset: timeROC::compare(fit_a, fit_b, adjusted = FALSE)$p_values_AUC (two-sided p-value of
# the difference at each time) and the standard error of the difference it is built on,
# apply(iid_a - iid_b, 2, sd) / sqrt(n).
#
# timeROC's conventions, read from its code: cases are the events with T < t (strictly),
# controls the rows with T > t; a case weighs 1 / G(T_i-) and a control 1 / G(t), G the
# Kaplan-Meier curve of the censoring from pec::ipcw(method = "marginal"), i.e.
# prodlim(..., reverse = TRUE), where events at a time are removed before the censorings at
# that time; tied markers count 1/2 (trapezoidal rule). The evaluation times below are never
# an observed time, so T < t and T <= t select the same cases. The standard error is
# sd(iid) / sqrt(n) (sample standard deviation, denominator n - 1).
suppressPackageStartupMessages({library(timeROC); library(survival); library(jsonlite)})

set.seed(20261206)

draw <- function(n, censor, time_digits = NA, cens_digits = NA, risk_digits = NA) {
  x <- rnorm(n)
  tt <- rexp(n, 0.1 * exp(x))
  cc <- rexp(n, 0.1 * censor / (1 - censor))
  if (!is.na(time_digits)) tt <- ceiling(tt * 10^time_digits) / 10^time_digits
  if (!is.na(cens_digits)) cc <- ceiling(cc * 10^cens_digits) / 10^cens_digits
  time <- pmin(tt, cc)
  status <- as.integer(tt <= cc)
  a <- x + rnorm(n, sd = 0.7)
  b <- 0.5 * x + rnorm(n)
  if (!is.na(risk_digits)) { a <- round(a, risk_digits); b <- round(b, risk_digits) }
  list(time = time, status = status, a = a, b = b)
}

# Times strictly inside the follow-up, between observed times (never equal to one).
pick_times <- function(time, status, probs) {
  ev <- sort(unique(time[status == 1]))
  q <- quantile(time, probs, type = 1, names = FALSE)
  u <- sort(unique(time))
  out <- sapply(q, function(v) { i <- match(v, u); if (i < length(u)) (u[i] + u[i + 1]) / 2 else v })
  out <- out[out > min(ev) & out < max(time)]
  sort(unique(out))
}

fit_one <- function(d, marker, times) {
  timeROC(T = d$time, delta = d$status, marker = marker, cause = 1, weighting = "marginal",
          times = times, iid = TRUE)
}

cases <- list()
add <- function(name, d, probs, note, keep_iid = FALSE) {
  times <- pick_times(d$time, d$status, probs)
  fa <- fit_one(d, d$a, times)
  fb <- fit_one(d, d$b, times)
  n <- length(d$time)
  sd_diff <- apply(fa$inference$mat_iid_rep_1 - fb$inference$mat_iid_rep_1, 2, sd) / sqrt(n)
  cmp <- timeROC::compare(fa, fb, adjusted = FALSE)
  out <- list(note = note, n = n, time = d$time, status = d$status, a = d$a, b = d$b,
              times = unname(fa$times),
              auc_a = unname(fa$AUC), se_a = unname(fa$inference$vect_sd_1),
              auc_b = unname(fb$AUC), se_b = unname(fb$inference$vect_sd_1),
              se_diff = unname(sd_diff), p_diff = unname(cmp$p_values_AUC),
              cases = unname(fa$Stats[, 1]), controls = unname(fa$Stats[, 2]))
  if (keep_iid) out$iid_a <- unname(fa$inference$mat_iid_rep_1)
  cases[[name]] <<- out
}

probs <- c(0.1, 0.25, 0.5, 0.75, 0.9)
add("continuous_n60", draw(60, 0.3), probs, "float times and markers: no ties", keep_iid = TRUE)
add("continuous_n400", draw(400, 0.6), probs, "float times and markers, 60% censored")
add("tied_events_n300", draw(300, 0.4, time_digits = 0, risk_digits = 1), probs,
    "event times tied (rounded up to integers), censoring times float (never tied), markers rounded to 0.1")
add("tied_all_n300", draw(300, 0.4, time_digits = 0, cens_digits = 0, risk_digits = 1), probs,
    "event and censoring times rounded up to integers (events and censorings at one time), markers rounded")
add("continuous_n2000", draw(2000, 0.3), c(0.05, 0.2, 0.5, 0.8, 0.95), "float times and markers, n = 2000")

# Real data: survival::lung (days; status 2 = death), complete rows of age, sex, ph.ecog;
# marker a: a Cox model's linear predictor (age + sex + ph.ecog), b: age alone.
lung_d <- na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog")])
lp <- predict(coxph(Surv(time, status) ~ age + sex + ph.ecog, data = lung_d), type = "lp")
add("lung", list(time = as.numeric(lung_d$time), status = as.integer(lung_d$status == 2),
                 a = unname(lp), b = as.numeric(lung_d$age)), c(0.1, 0.25, 0.5, 0.75),
    "survival::lung, complete cases of age, sex, ph.ecog; a = coxph linear predictor, b = age; ties in days")
# survival::pbc, first 312 (randomised) subjects; event = death (status 2), transplant = censored;
# a: log(bili), b: age.
pbc_d <- survival::pbc[1:312, ]
add("pbc", list(time = as.numeric(pbc_d$time), status = as.integer(pbc_d$status == 2),
                a = log(pbc_d$bili), b = pbc_d$age), c(0.1, 0.25, 0.5, 0.75, 0.9),
    "survival::pbc, 312 randomised subjects, death vs censored or transplanted; a = log(bili), b = age")

doc <- list(
  producer = paste0("tests/golden/make_timeroc_golden.R; ", R.version.string, "; timeROC ",
                    as.character(packageVersion("timeROC")), "; pec ", as.character(packageVersion("pec")),
                    "; prodlim ", as.character(packageVersion("prodlim")), "; survival ",
                    as.character(packageVersion("survival"))),
  call = paste("timeROC(T = time, delta = status, marker = m, cause = 1, weighting = 'marginal', times = times,",
               "iid = TRUE): $AUC, $inference$vect_sd_1; compare(fit_a, fit_b, adjusted = FALSE)$p_values_AUC;",
               "se_diff = apply(iid_a - iid_b, 2, sd) / sqrt(n)"),
  cases = cases)
write(toJSON(doc, digits = NA, auto_unbox = TRUE), "tests/golden/timeroc_golden.json")
