# Values described for messages: what a value is, which element of it is bad, a set of
# sizes. Every layer that words a message uses these.

# A short description of a value for error messages.
describe <- function(x) {
  if (is.null(x)) return("NULL")
  if (is.function(x)) return("a function")
  if (isS4(x)) { # a bigmemory big.matrix or its descriptor, among others
    d <- tryCatch(dim(x), error = function(e) NULL)
    return(sprintf("a %s%s", class(x)[1L],
                   if (length(d) == 2L) sprintf(" of %.0f x %.0f", d[1L], d[2L]) else ""))
  }
  if (is.data.frame(x)) return(sprintf("a data frame of %d x %d", nrow(x), ncol(x)))
  if (is.list(x) && is.object(x)) return(sprintf("an object of class %s", class(x)[1L]))
  if (is.list(x)) return(sprintf("a list of length %d", length(x)))
  if (length(x) == 0L) return(sprintf("an empty %s vector", typeof(x)))
  if (length(x) > 1L) {
    return(sprintf("%s %s vector of length %d", if (typeof(x) == "integer") "an" else "a",
                   typeof(x), length(x)))
  }
  if (is.factor(x)) return("a factor")
  if (is.character(x)) return(sprintf("\"%s\"", x))
  format(x)
}

# A vector described by its first element that fails `good` (a logical vector), for
# messages that name what is wrong: "a double vector of length 4 with NA (element 2)"; a
# single value as describe() gives it.
describe_bad <- function(x, good) {
  if (length(x) <= 1L || all(good %in% TRUE)) return(describe(x))
  k <- which(!good | is.na(good))[1L]
  sprintf("%s with %s (element %d)", describe(x), format(x[[k]]), k)
}

sizes_text <- function(sizes, idx) {
  paste(sort(unique(sizes[idx])), collapse = ", ")
}

# Up to 5 names, then how many more.
name_list <- function(nm) {
  if (length(nm) <= 5L) return(paste(nm, collapse = ", "))
  sprintf("%s, ... (%d in all)", paste(nm[1:4], collapse = ", "), length(nm))
}

# "1 row", "2 rows", "1,500 rows": a count and its noun, in the plural where it is not 1.
count_text <- function(n, noun, plural = paste0(noun, "s")) {
  sprintf("%s %s", format(n, big.mark = ","), if (identical(as.numeric(n), 1)) noun else plural)
}

# Text broken at spaces into lines of `width` characters (a character vector, a line each),
# never inside "N = 5", "sizes = 2:40" or "+- 1 SE", whose parts read as one.
wrap_text <- function(txt, width = getOption("width")) {
  kept <- gsub("(N|sizes) = ([0-9:]+)", "\\1\001=\001\\2", txt)
  kept <- gsub("+- 1 SE", "+-\0011\001SE", kept, fixed = TRUE)
  gsub("\001", " ", strwrap(kept, width = width), fixed = TRUE)
}
