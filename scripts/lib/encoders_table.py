"""The table of encoders, conformance/adapters/encoders.txt, for the results scripts' Python parts."""

FIELDS = ("name", "formats", "level", "encoder", "mode", "title", "how")


def read_table(path):
    """One dict per encoder, in the table's order; formats as a list."""
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("|")
            if len(fields) != len(FIELDS):
                raise SystemExit("%s:%d: %d fields, expected %d (%s)" % (path, number, len(fields), len(FIELDS),
                                                                         " | ".join(FIELDS)))
            row = dict(zip(FIELDS, fields))
            row["formats"] = row["formats"].split()
            rows.append(row)
    return rows
