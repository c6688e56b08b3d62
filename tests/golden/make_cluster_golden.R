# Golden values for clustered AUC inference: Obuchowski's (1997) variance written out
# literally, and R survival's concordance with a cluster argument (grouped infinitesimal
# jackknife).
# Usage (from the project root): Rscript tests/golden/make_cluster_golden.R
# Self-contained and seeded: it draws the datasets itself and stores them (labels, scores,
# cluster ids, weights) in tests/golden/cluster_golden.json, so the tests need no R.
#
# Definitions (Obuchowski 1997, "Nonparametric analysis of clustered ROC curve data",
# Biometrics 53), with frequency weights w (1 when absent), psi(a, b) = 1 if a > b, 1/2 if
# a == b, 0 otherwise, N+ / N- the positive / negative masses:
#   AUC    = sum_{i pos} sum_{k neg} w_i w_k psi(x_i, x_k) / (N+ N-)
#   V10_g  = sum_{i in g, pos} w_i sum_{k neg} w_k psi(x_i, x_k) / N-      (cluster g)
#   V01_g  = sum_{k in g, neg} w_k sum_{i pos} w_i psi(x_i, x_k) / N+
#   m_g, n_g = positive / negative mass of cluster g
#   I10, I01 = clusters with a positive / negative row; I = all clusters
#   S10    = I10 / ((I10 - 1) N+) sum_g (V10_g - m_g AUC)^2
#   S01    = I01 / ((I01 - 1) N-) sum_g (V01_g - n_g AUC)^2
#   S11    = I / (I - 1) sum_g (V10_g - m_g AUC)(V01_g - n_g AUC)
#   Var    = S10 / N+ + S01 / N- + 2 S11 / (N+ N-)
# Two scorers r, s: the same with cross-products,
#   Cov = S10^{rs} / N+ + S01^{rs} / N- + (S11^{rs} + S11^{sr}) / (N+ N-),
#   S11^{rs} = I / (I - 1) sum_g (V10^r_g - m_g AUC^r)(V01^s_g - n_g AUC^s).
# Unclustered DeLong (every row its own unit; frequency weights as copies):
#   S10 = sum_{i pos} w_i (V10_i - AUC)^2 / (N+ - 1), V10_i = sum_k w_k psi / N-, likewise
#   S01; Var = S10 / N+ + S01 / N-.
# survival: concordance(y ~ x, cluster = id[, weights = w]); its "var" is
#   sum_g (sum_{i in g} dfbeta_i)^2, dfbeta_i = w_i dC/dw_i (the grouped infinitesimal
#   jackknife: Obuchowski's sums without the I_c/(I_c-1), I/(I-1) factors).
#   Two predictors: concordance(lm(y ~ 0 + offset(x1)), lm(y ~ 0 + offset(x2)),
#   cluster = id) (fitted values = the scores exactly), whose "var" is the 2 x 2 IJ
#   covariance. survival 3.5-3 multiplies the dfbeta by the weights a second time in that
#   multi-model path (cord.work: t(wt * dfbeta) %*% dfbeta), which with weights and no
#   cluster gives a variance unlike the one-predictor call's, and with weights and a cluster
#   stops ("dims do not match the length of object"): it is called without weights only.
suppressPackageStartupMessages({library(survival); library(jsonlite)})

set.seed(20250528)

psi <- function(a, b) outer(a, b, ">") + 0.5 * outer(a, b, "==")

# Obuchowski's covariance matrix of K scorers (columns of X), written out per cluster.
obuchowski <- function(y, X, id, w) {
  X <- as.matrix(X)
  K <- ncol(X)
  pos <- y == 1
  neg <- y == 0
  Np <- sum(w[pos]); Nn <- sum(w[neg])
  ids <- unique(id)
  I <- length(ids)
  I10 <- length(unique(id[pos]))
  I01 <- length(unique(id[neg]))
  auc <- numeric(K)
  V10 <- matrix(0, I, K); V01 <- matrix(0, I, K)
  m <- numeric(I); nn <- numeric(I)
  for (k in 1:K) {
    P <- psi(X[pos, k], X[neg, k])                 # (n+, n-)
    auc[k] <- sum(outer(w[pos], w[neg]) * P) / (Np * Nn)
    v10_row <- as.vector(P %*% w[neg]) / Nn        # V10 of each positive row
    v01_row <- as.vector(t(P) %*% w[pos]) / Np     # V01 of each negative row
    for (g in seq_along(ids)) {
      in_p <- id[pos] == ids[g]
      in_n <- id[neg] == ids[g]
      V10[g, k] <- sum(w[pos][in_p] * v10_row[in_p])
      V01[g, k] <- sum(w[neg][in_n] * v01_row[in_n])
    }
  }
  for (g in seq_along(ids)) {
    m[g] <- sum(w[pos][id[pos] == ids[g]])
    nn[g] <- sum(w[neg][id[neg] == ids[g]])
  }
  D10 <- V10 - outer(m, auc)
  D01 <- V01 - outer(nn, auc)
  S10 <- I10 / ((I10 - 1) * Np) * crossprod(D10)
  S01 <- I01 / ((I01 - 1) * Nn) * crossprod(D01)
  S11 <- I / (I - 1) * crossprod(D10, D01)          # [r, s] = sum_g D10^r_g D01^s_g
  cov <- S10 / Np + S01 / Nn + (S11 + t(S11)) / (Np * Nn)
  list(auc = auc, cov = cov, I = I, I10 = I10, I01 = I01,
       S10 = S10, S01 = S01, S11 = S11, Np = Np, Nn = Nn)
}

# Unclustered DeLong covariance (frequency weights as copies of rows).
delong <- function(y, X, w) {
  X <- as.matrix(X)
  K <- ncol(X)
  pos <- y == 1; neg <- y == 0
  Np <- sum(w[pos]); Nn <- sum(w[neg])
  auc <- numeric(K)
  D10 <- matrix(0, sum(pos), K); D01 <- matrix(0, sum(neg), K)
  for (k in 1:K) {
    P <- psi(X[pos, k], X[neg, k])
    auc[k] <- sum(outer(w[pos], w[neg]) * P) / (Np * Nn)
    D10[, k] <- as.vector(P %*% w[neg]) / Nn - auc[k]
    D01[, k] <- as.vector(t(P) %*% w[pos]) / Np - auc[k]
  }
  S10 <- crossprod(D10 * w[pos], D10) / (Np - 1)
  S01 <- crossprod(D01 * w[neg], D01) / (Nn - 1)
  S10 / Np + S01 / Nn
}

# Cluster sizes summing to n, each in [lo, hi], the last ones fixed up.
sizes_summing <- function(n, lo, hi) {
  s <- integer(0)
  while (sum(s) < n) s <- c(s, sample(lo:hi, 1))
  s[length(s)] <- s[length(s)] - (sum(s) - n)
  if (s[length(s)] < 1) { s[length(s) - 1] <- s[length(s) - 1] + s[length(s)]; s <- s[-length(s)] }
  s
}

# Scores with a cluster effect: s = mu * y + sqrt(rho) b_g + sqrt(1 - rho) e, rounded.
clustered_scores <- function(y, id, mu, rho, digits) {
  g <- match(id, unique(id))
  b <- rnorm(max(g))
  round(mu * y + sqrt(rho) * b[g] + sqrt(1 - rho) * rnorm(length(y)), digits)
}

datasets <- list()

# 1. Tiny, integer scores (many ties), unequal clusters: single-row clusters, a cluster
#    of positives only and one of negatives only.
sz <- c(1, 1, 2, 3, 4, 5, 6, 8)
id <- rep(seq_along(sz), sz)
y <- c(1, 0, 1, 1, 1, 1, 1, rbinom(30 - 7, 1, 0.4))
y[id == 6] <- 0                                     # cluster 6: negatives only
y[id == 8][1:2] <- c(0, 1)
x1 <- sample(1:5, 30, replace = TRUE) + y
x2 <- pmin(pmax(x1 + sample(-1:1, 30, replace = TRUE), 1), 7)
datasets$tiny_ties <- list(y = y, x = cbind(x1, x2), id = id, w = NULL)

# 2. n = 100, clusters of 1 to 12 rows, scores to one decimal (ties).
sz <- sizes_summing(100, 1, 12)
id <- rep(seq_along(sz), sz)
y <- rbinom(100, 1, 0.35)
x1 <- clustered_scores(y, id, 1.0, 0.5, 1)
x2 <- round(0.7 * x1 + 0.5 * clustered_scores(y, id, 0.6, 0.3, 1), 1)
datasets$unequal_100 <- list(y = y, x = cbind(x1, x2), id = id, w = NULL)

# 3. n = 150 in 30 clusters of 5: 10 of positives only, 10 of negatives only, 10 mixed;
#    string ids.
id <- rep(sprintf("site-%02d", sample(30)), each = 5)
g <- match(id, unique(id))
y <- ifelse(g <= 10, 1, ifelse(g <= 20, 0, rbinom(150, 1, 0.5)))
x1 <- clustered_scores(y, id, 1.2, 0.5, 2)
x2 <- clustered_scores(y, id, 0.8, 0.5, 2)
datasets$one_class_clusters <- list(y = y, x = cbind(x1, x2), id = id, w = NULL)

# 4. n = 60 in 15 clusters of 1 to 7, integer frequency weights 1 to 4, ties.
sz <- sizes_summing(60, 1, 7)
id <- rep(seq_along(sz), sz) * 10                   # ids 10, 20, ...
y <- rbinom(60, 1, 0.45)
x1 <- clustered_scores(y, id, 1.0, 0.5, 0)
x2 <- clustered_scores(y, id, 0.5, 0.5, 0)
w <- sample(1:4, 60, replace = TRUE)
datasets$weighted_60 <- list(y = y, x = cbind(x1, x2), id = id, w = w)

# 5. n = 300: 150 single-row clusters, the rest in clusters of 2 to 15; ties.
sz <- c(rep(1, 150), sizes_summing(150, 2, 15))
id <- rep(sample(length(sz)), sz)                  # ids shuffled, not in order
y <- rbinom(300, 1, 0.3)
x1 <- clustered_scores(y, id, 0.8, 0.5, 1)
x2 <- clustered_scores(y, id, 1.0, 0.2, 1)
datasets$singletons_300 <- list(y = y, x = cbind(x1, x2), id = id, w = NULL)

# 6. n = 2000 in 400 clusters of 5, intra-cluster correlation 0.5 of the scores, the
#    prevalence varying between clusters; scores to three decimals.
id <- rep(1:400, each = 5)
p <- rbeta(400, 2, 3)
y <- rbinom(2000, 1, p[id])
b <- rnorm(400)
x1 <- round(1.0 * y + sqrt(0.5) * b[id] + sqrt(0.5) * rnorm(2000), 3)
x2 <- round(0.8 * y + 0.6 * sqrt(0.5) * b[id] + 0.8 * sqrt(0.5) * rnorm(400)[id] + sqrt(0.5) * rnorm(2000), 3)
datasets$big_2000 <- list(y = y, x = cbind(x1, x2), id = id, w = NULL)

calls <- list(
  survival_one = "concordance(y ~ x, cluster = id[, weights = w])  # value: $concordance, variance: $var",
  survival_rows = "concordance(y ~ x[, weights = w])  # no cluster: every row its own unit",
  survival_two = "concordance(lm(y ~ 0 + offset(x1)), lm(y ~ 0 + offset(x2)), cluster = id)  # $var: 2 x 2 (unweighted only)",
  obuchowski = "obuchowski(y, X, id, w) in this script (literal per-cluster sums)",
  delong = "delong(y, X, w) in this script (literal, independent rows)")

cases <- list()
for (name in names(datasets)) {
  d <- datasets[[name]]
  y <- d$y; X <- d$x; id <- d$id
  w <- if (is.null(d$w)) rep(1, length(y)) else d$w
  ob <- obuchowski(y, X, id, w)
  dl <- delong(y, X, w)
  # Each row its own cluster: Obuchowski's form is DeLong's.
  ob_rows <- obuchowski(y, X, seq_along(y), w)
  if (is.null(d$w)) stopifnot(max(abs(ob_rows$cov - dl)) < 1e-14)
  per <- list()
  for (k in 1:ncol(X)) {
    x <- X[, k]
    fit <- if (is.null(d$w)) concordance(y ~ x, cluster = id) else concordance(y ~ x, cluster = id, weights = w)
    fit_rows <- if (is.null(d$w)) concordance(y ~ x) else concordance(y ~ x, weights = w)
    # Direction: survival's C (higher x with higher y, ties 1/2) is the AUC.
    stopifnot(abs(fit$concordance - ob$auc[k]) < 1e-13)
    per[[k]] <- list(auc = ob$auc[k],
                     obuchowski_var = ob$cov[k, k],
                     obuchowski_se = sqrt(ob$cov[k, k]),
                     S10 = ob$S10[k, k], S01 = ob$S01[k, k], S11 = ob$S11[k, k],
                     delong_var = dl[k, k],
                     delong_se = sqrt(dl[k, k]),
                     survival_concordance = unname(fit$concordance),
                     survival_var = unname(fit$var),
                     survival_se = sqrt(unname(fit$var)),
                     survival_var_rows = unname(fit_rows$var))
  }
  case <- list(name = name, n = length(y),
               y = as.integer(y), x1 = as.numeric(X[, 1]), x2 = as.numeric(X[, 2]),
               clusters = if (is.character(id)) id else as.integer(id),
               weights = if (is.null(d$w)) NULL else as.numeric(d$w),
               n_clusters = ob$I, I10 = ob$I10, I01 = ob$I01,
               n_pos = ob$Np, n_neg = ob$Nn,
               x1_stats = per[[1]], x2_stats = per[[2]],
               obuchowski_cov = ob$cov[1, 2],
               delong_cov = dl[1, 2])
  if (is.null(d$w)) {
    f1 <- lm(y ~ 0 + offset(x1), data = data.frame(y = y, x1 = X[, 1]))
    f2 <- lm(y ~ 0 + offset(x2), data = data.frame(y = y, x2 = X[, 2]))
    two <- concordance(f1, f2, cluster = id)
    stopifnot(max(abs(unname(two$concordance) - ob$auc)) < 1e-13)
    stopifnot(abs(two$var[1, 1] - per[[1]]$survival_var) < 1e-15)
    case$survival_two_var <- unname(two$var)          # 2 x 2, row-major below
  }
  cases[[length(cases) + 1]] <- case
}

out <- list(R_version = R.version.string,
            survival_version = as.character(packageVersion("survival")),
            jsonlite_version = as.character(packageVersion("jsonlite")),
            seed = 20250528,
            script = "tests/golden/make_cluster_golden.R",
            calls = calls,
            cases = cases)
# Doubles as verbatim %.17g text (jsonlite prints at most 15 significant digits, which
# does not round-trip every double); a matrix as a list of rows; NULL as null.
exact <- function(x) {
  if (is.null(x)) return(NULL)
  if (is.list(x)) return(lapply(x, exact))
  if (is.matrix(x)) return(lapply(seq_len(nrow(x)), function(i) exact(as.vector(x[i, ]))))
  if (is.double(x)) {
    txt <- ifelse(is.finite(x), sprintf("%.17g", x), "null")
    return(structure(if (length(x) == 1) txt else paste0("[", paste(txt, collapse = ", "), "]"),
                     class = "json"))
  }
  x
}
write_json(exact(out), "tests/golden/cluster_golden.json", digits = NA, auto_unbox = TRUE, pretty = TRUE,
           na = "null", null = "null", json_verbatim = TRUE)
