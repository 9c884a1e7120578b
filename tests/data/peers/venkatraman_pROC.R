# Reference figures of pROC 1.18's roc.test(method = "venkatraman") (paired and
# unpaired): the observed statistic E, the p-value and the permutation distribution
# (quantiles, mean, sd) of E over boot.n = 4000 permutations, for several data sets.
# Run from tests/data/peers: Rscript venkatraman_pROC.R
#   -> venkatraman_pROC_data.csv, venkatraman_pROC.json
suppressMessages(library(pROC))
library(jsonlite)
set.seed(1996)
B <- 4000
rows <- list()
out <- list()
specs <- list(
  list(n = 30, prev = 0.4, ea = 1.0, eb = 1.0, rho = 0.5, digits = NA),
  list(n = 80, prev = 0.3, ea = 1.5, eb = 0.5, rho = 0.3, digits = NA),
  list(n = 150, prev = 0.5, ea = 0.8, eb = 0.8, rho = 0.7, digits = 1),
  list(n = 60, prev = 0.25, ea = 2.0, eb = 0.3, rho = 0.0, digits = 0),
  list(n = 200, prev = 0.2, ea = 1.0, eb = 1.2, rho = 0.5, digits = NA)
)
for (k in seq_along(specs)) {
  s <- specs[[k]]
  y <- rbinom(s$n, 1, s$prev)
  y[1] <- 1; y[2] <- 0
  z1 <- rnorm(s$n); z2 <- s$rho * z1 + sqrt(1 - s$rho^2) * rnorm(s$n)
  a <- z1 + s$ea * y
  b <- z2 + s$eb * y
  if (!is.na(s$digits)) { a <- round(a, s$digits); b <- round(b, s$digits) }
  rows[[k]] <- data.frame(dataset = k, y = y, a = a, b = b)
  ra <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
  rb <- roc(y, b, levels = c(0, 1), direction = "<", quiet = TRUE)
  st <- pROC:::venkatraman.paired.test(ra, rb, B, "first", "none", FALSE)
  t <- roc.test(ra, rb, method = "venkatraman", boot.n = B, progress = "none")
  # unpaired: model a on the first half of the rows, model b on the second half
  h <- floor(s$n / 2)
  ua <- roc(y[1:h], a[1:h], levels = c(0, 1), direction = "<", quiet = TRUE)
  ub <- roc(y[(h + 1):s$n], b[(h + 1):s$n], levels = c(0, 1), direction = "<", quiet = TRUE)
  su <- pROC:::venkatraman.unpaired.test(ua, ub, B, "first", "none", FALSE)
  tu <- roc.test(ua, ub, method = "venkatraman", boot.n = B, progress = "none", paired = FALSE)
  q <- c(0.05, 0.25, 0.5, 0.75, 0.95)
  out[[k]] <- list(
    dataset = k, n = s$n, boot_n = B, split = h,
    paired = list(E = st[[1]], p_value = t$p.value, statistic = unname(t$statistic),
                  perm_mean = mean(st[[2]]), perm_sd = sd(st[[2]]),
                  perm_quantiles = unname(quantile(st[[2]], q)),
                  p_from_distribution = mean(st[[2]] >= st[[1]])),
    unpaired = list(E = su[[1]], p_value = tu$p.value, statistic = unname(tu$statistic),
                    perm_mean = mean(su[[2]]), perm_sd = sd(su[[2]]),
                    perm_quantiles = unname(quantile(su[[2]], q)),
                    p_from_distribution = mean(su[[2]] >= su[[1]]))
  )
}
write.csv(do.call(rbind, rows), "venkatraman_pROC_data.csv", row.names = FALSE)
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, pretty = TRUE), "venkatraman_pROC.json")
