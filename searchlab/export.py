"""Every summary table of a run as tidy CSV, LaTeX (booktabs) and markdown: the public name of
searchlab.studies.sweep.sweep_export (see its docstring for the tables and their columns)::

    import searchlab, searchlab.export
    paths = searchlab.export.write_tables("results/quick/RUN", formats=("csv", "latex"))
    paths = searchlab.export.write_tables("results/quick/RUN", formats="latex", estimators="fit,alpha",
                                          columns=("b", "ordering"), digits=3)
"""

from searchlab.studies.sweep.sweep_export import (ESTIMATORS, FORMATS, constant_columns, link_tables,
                                                  parse_estimators, parse_formats, select_columns,
                                                  summary_tables, to_latex, to_markdown, write_tables)

__all__ = ["FORMATS", "ESTIMATORS", "summary_tables", "write_tables", "to_latex", "to_markdown", "parse_formats",
           "parse_estimators", "select_columns", "constant_columns", "link_tables"]
