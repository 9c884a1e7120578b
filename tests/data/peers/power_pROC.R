# Reference figures of pROC 1.18's power.roc.test (Obuchowski & McClish formulas).
# Run from tests/data/peers: Rscript power_pROC.R  -> power_pROC_data.csv, power_pROC.json
suppressMessages(library(pROC))
library(jsonlite)
set.seed(26)
n <- 160
y <- rbinom(n, 1, 0.35)
d <- data.frame(
  y = y,
  s1 = round(rnorm(n) + 1.0 * y, 1),   # ties
  s2 = rnorm(n) + 0.5 * y + 0.3 * rnorm(n),
  s3 = rnorm(n) + 0.8 * y
)
write.csv(d, "power_pROC_data.csv", row.names = FALSE)
out <- list(numeric = list(), data_one = list(), data_two = list(), params = list())

# one curve against AUC 0.5, numeric inputs
for (alt in c("two.sided", "one.sided")) {
  for (auc in c(0.6, 0.73, 0.85, 0.95)) {
    for (nn in list(c(20, 30), c(41, 72), c(100, 100), c(15, 300))) {
      r <- power.roc.test(ncases = nn[1], ncontrols = nn[2], auc = auc, alternative = alt)
      out$numeric[[length(out$numeric) + 1]] <- list(solve = "power", alternative = alt,
        auc = auc, ncases = nn[1], ncontrols = nn[2], sig.level = 0.05, power = r$power)
      r <- power.roc.test(ncases = nn[1], ncontrols = nn[2], power = 0.8, alternative = alt)
      out$numeric[[length(out$numeric) + 1]] <- list(solve = "auc", alternative = alt,
        auc = r$auc, ncases = nn[1], ncontrols = nn[2], sig.level = 0.05, power = 0.8)
    }
    for (kappa in c(1, 1.7, 4)) {
      for (pw in c(0.8, 0.95)) {
        r <- power.roc.test(auc = auc, power = pw, kappa = kappa, alternative = alt, sig.level = 0.01)
        out$numeric[[length(out$numeric) + 1]] <- list(solve = "n", alternative = alt,
          auc = auc, kappa = kappa, ncases = r$ncases, ncontrols = r$ncontrols,
          sig.level = 0.01, power = pw)
      }
    }
  }
}

# one curve from data; two paired curves from data (DeLong covariance)
for (s in c("s1", "s2", "s3")) {
  ro <- roc(d$y, d[[s]], levels = c(0, 1), direction = "<", quiet = TRUE)
  r1 <- power.roc.test(ro)
  r2 <- power.roc.test(ro, power = 0.9)
  out$data_one[[length(out$data_one) + 1]] <- list(score = s, auc = as.numeric(ro$auc),
    power = r1$power, n_for_0.9 = r2$ncases, ncontrols_for_0.9 = r2$ncontrols)
}
for (pair in list(c("s1", "s2"), c("s2", "s1"), c("s3", "s2"), c("s1", "s3"))) {
  ra <- roc(d$y, d[[pair[1]]], levels = c(0, 1), direction = "<", quiet = TRUE)
  rb <- roc(d$y, d[[pair[2]]], levels = c(0, 1), direction = "<", quiet = TRUE)
  for (alt in c("two.sided", "one.sided")) {
    p1 <- power.roc.test(ra, rb, alternative = alt)
    p2 <- power.roc.test(ra, rb, power = 0.9, alternative = alt)
    out$data_two[[length(out$data_two) + 1]] <- list(a = pair[1], b = pair[2],
      alternative = alt, auc1 = as.numeric(ra$auc), auc2 = as.numeric(rb$auc),
      power = p1$power, ncases_for_0.9 = p2$ncases, ncontrols_for_0.9 = p2$ncontrols)
  }
}

# binormal parameters (Obuchowski & McClish 1997), full and partial areas, paired and not
pars <- list(
  list(A1 = 2.6, B1 = 1, A2 = 1.9, B2 = 1, rn = 0.6, ra = 0.6, delta = 0.037),
  list(A1 = 1.2, B1 = 0.8, A2 = 0.9, B2 = 1.1, rn = 0.3, ra = 0.5, delta = 0.06),
  list(A1 = 1.5, B1 = 1, A2 = 1.0, B2 = 1, rn = 0, ra = 0, delta = 0.08),
  list(A1 = 2.6, B1 = 1, A2 = 1.9, B2 = 1, rn = 0.6, ra = 0.6, delta = 0.037,
       FPR11 = 0, FPR12 = 0.2, FPR21 = 0, FPR22 = 0.2),
  list(A1 = 1.2, B1 = 0.8, A2 = 0.9, B2 = 1.1, rn = 0.3, ra = 0.5, delta = 0.02,
       FPR11 = 0.1, FPR12 = 0.3, FPR21 = 0.1, FPR22 = 0.3)
)
for (p in pars) {
  for (alt in c("two.sided", "one.sided")) {
    r1 <- power.roc.test(p, power = 0.9, kappa = 1.5, alternative = alt)
    r2 <- power.roc.test(p, ncases = 200, ncontrols = 300, alternative = alt)
    out$params[[length(out$params) + 1]] <- c(p, list(alternative = alt, kappa = 1.5,
      ncases_for_0.9 = r1$ncases, power_200_300 = r2$power))
  }
}
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), "power_pROC.json")
