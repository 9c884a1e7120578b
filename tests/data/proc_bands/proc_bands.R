# Reference values for prroc_numba.bootstrap_curve(curve="roc") from pROC 1.18.
# Run from this folder: Rscript proc_bands.R  (writes proc_bands.csv)
# Stratified bootstrap replicates of pROC's own ci.se / ci.sp resampler
# (pROC:::stratified.ci.se / stratified.ci.sp, what ci.se(boot.stratified=TRUE) runs),
# summarised as the standard deviation and the 2.5% / 97.5% quantiles per grid point.
library(pROC)
set.seed(1)
d <- read.csv("data.csv")
r <- roc(d$label, d$score, levels = c(0, 1), direction = "<", quiet = TRUE)
B <- 4000
grid <- (0:20) / 20
sp <- 1 - grid  # TPR at FPR = grid: sensitivity at specificity 1 - grid
se_reps <- t(sapply(seq_len(B), function(i) pROC:::stratified.ci.se(i, r, sp)))
sp_reps <- t(sapply(seq_len(B), function(i) pROC:::stratified.ci.sp(i, r, grid)))
ci <- ci.se(r, specificities = sp, boot.n = B, boot.stratified = TRUE, progress = "none")
est_se <- coords(r, sp, input = "specificity", ret = "sensitivity", transpose = FALSE)[, 1]
est_sp <- coords(r, grid, input = "sensitivity", ret = "specificity", transpose = FALSE)[, 1]
q <- function(m, p) apply(m, 2, quantile, probs = p)
out <- rbind(
  data.frame(space = "fpr", x = grid, estimate = est_se, sd = apply(se_reps, 2, sd),
             q025 = q(se_reps, 0.025), q975 = q(se_reps, 0.975),
             ci_se_low = ci[, 1], ci_se_high = ci[, 3]),
  data.frame(space = "tpr", x = grid, estimate = 1 - est_sp, sd = apply(sp_reps, 2, sd),
             q025 = 1 - q(sp_reps, 0.975), q975 = 1 - q(sp_reps, 0.025),
             ci_se_low = NA, ci_se_high = NA)
)
write.csv(out, "proc_bands.csv", row.names = FALSE)
