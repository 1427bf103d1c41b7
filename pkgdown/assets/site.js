/* somgpu's site script, in place of pkgdown.js and the libraries it takes from CDNs
   (pkgdown/templates/head.html): the page's table of contents from its h2 and h3
   headings, Bootstrap's tooltips and popovers, and the scrollspy of the contents. */
(function($) {
  $(function() {
    var $nav = $("#toc");
    if ($nav.length) {
      var $list = $("<ul class='nav nav-pills flex-column'></ul>");
      var $sub = null;
      $("main h2, main h3").each(function(i, h) {
        var $h = $(h);
        if ($h.closest("#toc, .ref-index").length || $h.text().trim() === "") return;
        if (!h.id) {
          var parent = $h.closest("div.section, section").attr("id");
          h.id = parent && !$("#" + parent).is("h2, h3") ? parent : "toc-" + i;
        }
        var $item = $("<li class='nav-item'></li>").append(
          $("<a class='nav-link'></a>").attr("href", "#" + h.id).text($h.text().trim()));
        if (h.tagName === "H2" || !$list.children().length) {
          $list.append($item);
          $sub = null;
        } else {
          if (!$sub) {
            $sub = $("<ul class='nav nav-pills flex-column'></ul>");
            $list.children().last().append($sub);
          }
          $sub.append($item);
        }
      });
      if ($list.children().length) {
        $nav.append($list);
        new bootstrap.ScrollSpy(document.body, {
          target: "#toc", offset: $("nav.navbar").outerHeight() + 1
        });
      } else {
        $nav.closest("aside, .col-md-3").find("#toc").remove();
      }
    }
    document.querySelectorAll('[data-bs-toggle="popover"]').forEach(function(el) {
      new bootstrap.Popover(el, {container: "body", html: true, trigger: "focus",
                                 placement: "top", sanitize: false});
    });
    document.querySelectorAll('[data-bs-toggle="tooltip"]').forEach(function(el) {
      new bootstrap.Tooltip(el);
    });
  });
})(window.jQuery || window.$);
