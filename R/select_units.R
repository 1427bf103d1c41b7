# Columns in different units. The rings measure rows by Euclidean distance, so a column
# whose spread is a thousand times another's decides the maps alone (the suite's uci/wine:
# proline, 2,531 times the hue's standard deviation; select_size() found no groups in it,
# ARI 0, and 3 groups, ARI 0.87, on the standardized columns). With `scale = "auto"` (the
# default) select_size() standardizes the columns (train()'s scale = TRUE) when their
# standard deviations differ more than "spread_ratio"-fold (R/base_tuning.R), as columns measured in
# different units do, and for a data frame with categorical columns, whose weight assumes
# standardized numeric columns (train(), "Data frames with categorical columns"); else it
# keeps the data's units, in which the groups' geometry is the data's own.
#
# An order of magnitude: the field's benchmark suite's geometric sets (2 and 3 columns,
# one unit) stay within 7.3-fold, its real sets in mixed units reach 52 to 213,920-fold
# (bench/README.md, "Columns in different units"). Standardizing every set instead moved
# the geometric ones as a new seed would, losing as often as winning (a1's 20 blobs in 2
# groups, wut/stripes 1 -> 0.18; mean ARI over three seeds 0.751 against 0.747), while the
# sets in mixed units gained.
# The columns' spread ratio (x: rows as select_size() prepared them, a double matrix or a
# file): the largest standard deviation over the smallest positive one
# (column_spreads(): observed values; columns without spread, or whose spread is rounding,
# left out); 1 with fewer than two such columns. The columns' var_weights do not count: a
# column weighted 0 still counts here.
spread_ratio <- function(x) {
  s <- column_spreads(x)$spread
  s <- s[s > 0]
  if (length(s) < 2L) return(1)
  max(s) / min(s)
}

# train()'s `scale` for select_size()'s: "auto" decided on the rows x (the rows the rule
# trains on; `encoding`, a data frame's categorical columns, or NULL), TRUE, FALSE or a
# list as given (train() checks the list). list(scale, the value for train(); auto,
# whether "auto" decided; ratio, the spread ratio when it did (NA otherwise)).
# `wide`: a wide table reduced to its components (wide_auto(), R/select_reduce.R), whose
# units "auto" keeps.
select_scaling <- function(scale, x, encoding, call, wide = FALSE) {
  if (!identical(scale, "auto")) {
    if (!isTRUE(scale) && !isFALSE(scale) && !(is.list(scale) && !is.data.frame(scale))) {
      abort_scale(scale, call, auto = TRUE)
    }
    return(list(scale = scale, auto = FALSE, ratio = NA_real_, wide = FALSE))
  }
  if (!is.null(encoding)) return(list(scale = TRUE, auto = TRUE, ratio = NA_real_, wide = FALSE))
  ratio <- spread_ratio(x)
  list(scale = !wide && ratio > tuned("spread_ratio"), auto = TRUE, ratio = ratio, wide = wide)
}

# The words print() adds to the strategy for an "auto" decision that standardized.
scaling_words <- function(scaling) {
  if (isTRUE(scaling$wide)) {
    return("; columns kept in their units (a wide table's columns measure one kind of thing; scale = TRUE standardizes them)")
  }
  if (!scaling$auto || !isTRUE(scaling$scale)) return("")
  if (is.na(scaling$ratio)) return("; columns standardized (categorical columns present)")
  sprintf("; columns standardized (their spreads differ %s-fold; scale = FALSE keeps the units)",
          format(signif(scaling$ratio, 3), big.mark = ",", scientific = FALSE))
}
