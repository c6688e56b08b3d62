# Golden values from R pROC for rankwise.stats.curve_test / curve_test_unpaired
# (Venkatraman's permutation test that two ROC curves are equal).
# Usage (from the project root): Rscript tests/golden/make_proc_venkatraman.R
# Writes tests/golden/proc_venkatraman.json.
#
# Every dataset is stored with its data (labels 0/1 and the scores, in row order: pROC
# breaks tied scores by row order, ties.method = "first"), the statistic E of
# roc.test(method = "venkatraman") (deterministic: compared to 1e-9), and the permutation
# p-value at boot.n permutations after set.seed(seed) (random: compared in law, within
# Monte Carlo error). direction = "<" is fixed (higher score = positive), as in rankwise.
# For unpaired designs with samples of different sizes, pROC (1.18.0) mixes the two
# classes with weight (cases_a + cases_b) / (2 n_a) (its code counts the first sample's
# size twice); rankwise reproduces that with mixing = "proc".
suppressPackageStartupMessages({library(jsonlite); library(pROC)})
num <- function(v) structure(sprintf("%.17g", v), class = "json")
nums <- function(v) lapply(as.numeric(v), num)
BOOT_N <- 2000
out <- list(pROC_version = as.character(packageVersion("pROC")), boot_n = BOOT_N, paired = list(), unpaired = list())

summ <- function(ep) list(mean = num(mean(ep)), sd = num(sd(ep)),
                          q50 = num(quantile(ep, 0.5, names = FALSE)), q95 = num(quantile(ep, 0.95, names = FALSE)))

# The permutation distribution is drawn from pROC's internals with the same seed as
# roc.test, so its summary describes the law the p-value comes from.
paired_case <- function(name, y, a, b, seed) {
  r1 <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
  r2 <- roc(y, b, levels = c(0, 1), direction = "<", quiet = TRUE)
  set.seed(seed)
  t <- roc.test(r1, r2, method = "venkatraman", paired = TRUE, boot.n = BOOT_N, progress = "none")
  set.seed(seed)
  st <- pROC:::venkatraman.paired.test(r1, r2, BOOT_N, "first", "none", FALSE)
  d <- roc.test(r1, r2, method = "delong", paired = TRUE)
  list(name = name, y = as.integer(y), a = nums(a), b = nums(b), seed = seed,
       E = num(t$statistic), p_value = num(t$p.value), perm = summ(st[[2]]),
       auc_a = num(auc(r1)), auc_b = num(auc(r2)), delong_p = num(d$p.value))
}

unpaired_case <- function(name, ya, a, yb, b, seed) {
  r1 <- roc(ya, a, levels = c(0, 1), direction = "<", quiet = TRUE)
  r2 <- roc(yb, b, levels = c(0, 1), direction = "<", quiet = TRUE)
  set.seed(seed)
  t <- suppressWarnings(roc.test(r1, r2, method = "venkatraman", paired = FALSE, boot.n = BOOT_N, progress = "none"))
  set.seed(seed)
  st <- pROC:::venkatraman.unpaired.test(r1, r2, BOOT_N, "first", "none", FALSE)
  list(name = name, y_a = as.integer(ya), a = nums(a), y_b = as.integer(yb), b = nums(b), seed = seed,
       E = num(t$statistic), p_value = num(t$p.value), perm = summ(st[[2]]),
       mp = num((sum(ya == 1) + sum(yb == 1)) / (2 * length(ya))))
}

data(aSAH)
y <- as.integer(aSAH$outcome == "Poor")
wfns <- as.numeric(aSAH$wfns)
P <- list()
P[[1]] <- paired_case("aSAH s100b vs ndka", y, aSAH$s100b, aSAH$ndka, 1)
P[[2]] <- paired_case("aSAH s100b vs wfns", y, aSAH$s100b, wfns, 2)
P[[3]] <- paired_case("aSAH wfns vs ndka", y, wfns, aSAH$ndka, 3)
# Ties within and across the two scores (few distinct values).
set.seed(101)
n <- 80; yt <- rbinom(n, 1, 0.4)
at <- round(rnorm(n, yt * 0.8), 0); bt <- round(0.6 * at + rnorm(n, yt * 0.5), 0)
P[[4]] <- paired_case("simulated ties n=80", yt, at, bt, 4)
# Curves that cross with equal population AUCs (binormal: Phi(1 / sqrt(2)) for both).
set.seed(203)
n <- 300; yc <- rbinom(n, 1, 0.5)
ac <- rnorm(n, ifelse(yc == 1, 1, 0), 1)
bc <- ifelse(yc == 1, rnorm(n, 1.79, 2.5), rnorm(n, 0, 0.4))
P[[5]] <- paired_case("simulated crossing curves n=300", yc, ac, bc, 5)
# Tiny sample.
P[[6]] <- paired_case("tiny n=7", c(0, 1, 0, 1, 1, 0, 0), c(0.1, 0.4, 0.35, 0.8, 0.4, 0.2, 0.9),
                      c(3, 1, 2, 5, 4, 2, 6), 6)
out$paired <- P

U <- list()
m <- aSAH$gender == "Male"
U[[1]] <- unpaired_case("aSAH s100b male vs female", y[m], aSAH$s100b[m], y[!m], aSAH$s100b[!m], 11)
U[[2]] <- unpaired_case("aSAH s100b vs ndka, halves", y[1:56], aSAH$s100b[1:56], y[57:112], aSAH$ndka[57:112], 12)
set.seed(303)
ya <- rbinom(60, 1, 0.5); yb <- rbinom(60, 1, 0.5)
a <- round(rnorm(60, ya), 1); b <- round(ifelse(yb == 1, rnorm(60, 1, 2.5), rnorm(60, 0, 0.4)), 1)
U[[3]] <- unpaired_case("simulated ties equal sizes n=60", ya, a, yb, b, 13)
set.seed(404)
ya <- rep(c(0, 1), c(15, 10)); yb <- rep(c(0, 1), c(30, 45))
U[[4]] <- unpaired_case("simulated unequal sizes, mp > 1", ya, rnorm(25, ya), yb, rnorm(75, yb * 0.5), 14)
U[[5]] <- unpaired_case("tiny 4 and 5", c(0, 1, 0, 1), c(0.2, 0.3, 0.1, 0.9), c(1, 0, 0, 1, 1), c(2, 1, 3, 5, 4), 15)
out$unpaired <- U
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), "tests/golden/proc_venkatraman.json")
cat("wrote tests/golden/proc_venkatraman.json\n")
