# The documentation site, as a reader gets it: tools/site.R builds it from the tests'
# default build into a temporary folder (no warning, no broken internal link), then
# headless Chromium loads three pages (the home page, reference/select_size.html, an
# article): each must load without a console error, its screenshot must not be blank, and
# every figure it shows must be a PNG or SVG of the site that is not of one colour. One
# test per check; and every page is checked for a search box (none: it would need a CDN)
# and for "Toggle navigation" on anything but the navbar's toggler. Sourced by
# tools/run-tests.R (the target site).

run_site <- function() {
  checks <- new_checks()
  check <- checks$check
  home <- file.path(tempdir(), "site-check")
  dest <- file.path(home, "site")
  dir.create(home, showWarnings = FALSE)
  started <- proc.time()[["elapsed"]]
  # from the default build of the tests (installed once, in their temporary library)
  if (!install_build("default")) {
    check("the default build installs, for the site", FALSE)
    return(checks$counts())
  }
  out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"),
                                  c("tools/site.R", "--installed", shQuote(dest)),
                                  stdout = TRUE, stderr = TRUE,
                                  env = paste0("R_LIBS=", shQuote(build_lib("default")))))
  status <- attr(out, "status")
  cat(sprintf("     (tools/site.R: %.0f s)\n", proc.time()[["elapsed"]] - started))
  check("tools/site.R builds the site without a warning or a broken internal link",
        is.null(status) && any(grepl("^site: .* 0 warnings, 0 broken internal links$", out)),
        out)
  # no search box (one needs a CDN's libraries: it did nothing, issue 68), and the label
  # "Toggle navigation" on the navbar's toggler only (the search input carried it)
  if (requireNamespace("xml2", quietly = TRUE)) {
    html <- list.files(dest, "[.]html$", recursive = TRUE, full.names = TRUE)
    wrong <- unlist(lapply(html, function(f) {
      doc <- xml2::read_html(f)
      search <- xml2::xml_find_all(doc, "//form[@role='search'] | //input[@type='search']")
      toggle <- xml2::xml_find_all(doc, "//*[@aria-label='Toggle navigation']")
      mislabelled <- toggle[xml2::xml_name(toggle) != "button" |
                              is.na(xml2::xml_attr(toggle, "data-bs-toggle"))]
      page <- sub(paste0(dest, "/"), "", f, fixed = TRUE)
      c(if (length(search)) paste(page, "has a search box"),
        if (length(mislabelled)) paste(page, "labels a", xml2::xml_name(mislabelled),
                                       "\"Toggle navigation\""))
    }))
    check(sprintf("its %d pages carry no search box, and \"Toggle navigation\" labels the toggler only",
                  length(html)), length(html) > 0 && !length(wrong), utils::head(wrong, 10))
  } else {
    checks$skip("the pages' search box: no R package xml2")
  }
  pages <- c("index.html", "reference/select_size.html", "articles/choosing-groups.html")
  browser <- Sys.which(c("chromium", "chromium-browser", "google-chrome"))
  browser <- browser[nzchar(browser)][1]
  if (is.na(browser) || !requireNamespace("png", quietly = TRUE) ||
      !requireNamespace("xml2", quietly = TRUE)) {
    for (page in pages) {
      checks$skip(paste(page, "in Chromium: no chromium, or no R package png or xml2",
                        "(Rscript tools/setup.R tests installs them)"))
    }
    return(checks$counts())
  }
  for (page in pages) {
    file <- file.path(dest, page)
    if (!file.exists(file)) {
      check(sprintf("%s exists", page), FALSE)
      next
    }
    shot <- file.path(home, paste0(gsub("[/.]", "-", page), ".png"))
    profile <- file.path(home, "chromium-profile")
    # root needs --no-sandbox; the profile lives in the temporary folder; the page is tall
    # enough that the first figures are drawn
    flags <- c("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               paste0("--user-data-dir=", shQuote(profile)), "--hide-scrollbars",
               "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000")
    url <- paste0("file://", normalizePath(file))
    log <- tempfile(fileext = ".log")
    dom <- suppressWarnings(system2(browser, c(flags, "--dump-dom", shQuote(url)),
                                    stdout = TRUE, stderr = log))
    console <- grep("CONSOLE", readLines(log, warn = FALSE), value = TRUE)
    errors <- grep("Uncaught|Error|Failed to load|net::ERR", console, value = TRUE)
    suppressWarnings(system2(browser, c(flags, "--window-size=900,2400",
                                        paste0("--screenshot=", shQuote(shot)), shQuote(url)),
                             stdout = FALSE, stderr = FALSE))
    check(sprintf("%s: Chromium loads it, no console error", page),
          length(dom) > 0 && !length(errors), c(errors, utils::tail(dom, 5)))
    pixels <- if (file.exists(shot)) png::readPNG(shot) else NULL
    colours <- if (is.null(pixels)) 0 else
      length(unique(as.vector(round(pixels[, , 1] * 255) * 65536 +
                                round(pixels[, , 2] * 255) * 256 + round(pixels[, , 3] * 255))))
    check(sprintf("%s: its screenshot is not blank (%d colours)", page, colours), colours > 50)
    # the figures: the page's images (after its scripts ran), each a file of the site
    doc <- xml2::read_html(paste(dom, collapse = "\n"))
    src <- xml2::xml_attr(xml2::xml_find_all(doc, "//main//img[@src]"), "src")
    src <- src[nzchar(src) & !grepl("^data:|^[a-z]+://", src)] # (pkgdown's logo: src "")
    img <- file.path(dirname(file), src)
    shown <- vapply(img, function(f) {
      if (!file.exists(f)) return(FALSE)
      if (grepl("[.]svg$", f)) return(file.size(f) > 200)
      p <- tryCatch(png::readPNG(f), error = function(e) NULL)
      !is.null(p) && stats::sd(as.vector(p)) > 0
    }, logical(1))
    check(sprintf("%s: its figures (%d) are present and drawn", page, length(img)),
          length(img) > 0 && all(shown), paste("missing or blank:", src[!shown]))
  }
  checks$counts()
}
