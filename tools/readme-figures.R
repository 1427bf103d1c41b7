# The README's two figures, drawn from the package as installed (800 x 500 PNGs in
# man/figures): the groups view of iris with ggplot2, and plot() of the selection.
#
#   R CMD INSTALL . && Rscript tools/readme-figures.R
suppressMessages(library(somgpu))
y <- iris[, 1:4]
sel <- select_size(y, sizes = 2:10, scale = TRUE, seed = 1, progress = FALSE)
dir.create("man/figures", showWarnings = FALSE, recursive = TRUE)
if (requireNamespace("ggplot2", quietly = TRUE)) {
  p <- ggplot2::autoplot(sel, "groups", data = y) +
    ggplot2::labs(subtitle = "iris, scaled: select_size()")
  ggplot2::ggsave("man/figures/groups.png", p, width = 8, height = 5, dpi = 100)
}
grDevices::png("man/figures/select.png", 800, 500)
plot(sel, main = "select_size(iris[, 1:4], sizes = 2:10, scale = TRUE)")
invisible(grDevices::dev.off())
