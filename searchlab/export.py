"""Every summary table of a run as tidy CSV, LaTeX (booktabs) and markdown: the public name of
searchlab.studies.sweep.sweep_export (see its docstring for the tables and their columns)::

    import searchlab, searchlab.export
    paths = searchlab.export.write_tables("results/quick/RUN", formats=("csv", "latex"))
"""

from searchlab.studies.sweep.sweep_export import (FORMATS, link_tables, parse_formats, summary_tables,
                                     to_latex, to_markdown, write_tables)

__all__ = ["FORMATS", "summary_tables", "write_tables", "to_latex", "to_markdown", "parse_formats",
           "link_tables"]
