"""tools/book: build the looplab book with Doxygen, and check it.

The book's sources are the Markdown pages in book/. Code is never pasted into
them: a chapter pulls it from the stage sources with `\\snippet`, between two
marker comment lines of the same name,

    // [run_once]
    void EventLoop::run_once() { ... }
    // [run_once]

and shows what cannot be pulled (a chapter's diff, the demo's output, the
benchmark figures) from files this tool generates first.

Commands:
  lint            check the markers and the references to them: every marker
                  line appears exactly twice in its file; every marker in
                  stages/ and bench/ (but an assignment region's) is used by a
                  \\snippet in book/; every \\snippet names an existing file and
                  marker; every placeholder is known; chapters follow the
                  template; assignment pages hold no Doxygen command
  build           lint; build the demos (build/release or build/book-demos) and save their
                  output, and the output of the programs the pages show
                  running (an example program marked `// book: run at build
                  time`, each of book/examples/*.py); generate each chapter's diff, its benchmark table and
                  charts (from build/report, when `make report` has run); copy
                  the pages to build/book/src with the placeholders replaced
                  and the navigation added; write the Doxyfile from
                  book/Doxyfile.in and run Doxygen, which must not warn.
                  Result: build/book/html/index.html. With --edition course,
                  the course edition: each assignment region shows as the
                  student's task (build/book-course/html/index.html)
  filter-source F print F as the API reference lists it (Doxygen's source
                  filter): tools/assignment's filter, snippet marker lines blank
  check-browser   load the built pages in headless Chromium: each chapter shows
                  a code fragment per \\snippet, a diagram per \\dot/\\msc block
                  (its image written), its demo's output and the longest line
                  of each of its snippets; every page in the reading order has
                  its previous/next links; no marker is visible; the course
                  edition shows no line that gives a region's solution away,
                  the reader's no student's task; screenshots go to
                  build/book/screenshots/ (build/book-course/screenshots/)

Placeholders, replaced in build/book/src (NN is a stage number, two digits):
  @STAGE_DIFF(NN)@    what chapter NN changes: a table of the files with their
                      added/removed line counts and the whole diff against the
                      parent stage (tools/stage diff, markers removed); for a
                      first stage, its files with their line counts
  @BENCHMARKS(NN)@    the workloads chapter NN adds, with stage NN's figures
                      next to CPython asyncio and uvloop, and the report's
                      charts; or, without a report, how to build one
                      (build/report: summary.json, implementations.json,
                      header.json and charts/, as `make report` writes them)
  @TESTS(NN)@         the test groups chapter NN adds: its unit test files and
                      its scenario twins, and the ctest commands that run them
  @SCENARIO(group/name)@
                      alone on its line: one scenario twin, its C++ program
                      (tests/scenarios/) and its CPython twin (comparisons/
                      scenarios/) pulled in whole with \\include, and the lines
                      both print, read from the C++ file's `// expect:` lines
Previous/next links are not written by hand: every page in the reading order
(the front page, then each chapter chNN followed by its assignment assignmentNN)
gets them at its top and bottom. Doxygen reads the pages in that order, then the
other pages (appendices), which is the order of its tree view.

The code, one job per module (tools/looplab_tools/book/):
  config.py            where the book and its outputs are; the edition a command works on
  sources.py           the sources the book shows: stages, regions, snippet markers
  pages.py             the pages: reading them, their reading order, writing them
                       with the placeholders replaced and the navigation added
  lint.py              the lint command
  demos.py             the demos' output (build/release or build/book-demos), and the book's programs'
  diffs.py             @STAGE_DIFF(NN)@
  report_data.py       what the book reads from the benchmark report (build/report)
  benchmarks.py        @BENCHMARKS(NN)@: the chapter's workloads, with or without a report
  benchmark_tables.py  the tables of @BENCHMARKS(NN)@, from the report's figures
  tests_fragment.py    @TESTS(NN)@
  scenarios.py         @SCENARIO(group/name)@
  describe.py          what a file says about itself, for the generated tables
  doxygen.py           the Doxyfile and the Doxygen run
  build.py             the build command
  chromium.py          headless Chromium
  browser.py           the check-browser command
  cli.py               the command line (tools/book, python3 -m looplab_tools.book)
"""
