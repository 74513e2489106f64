"""rows.py: the Python examples' table of parlab.bench's rows (variant, size, median, verified),
and their exit status: 1 when any row is not verified. Imported by the scripts beside it."""


def print_rows(rows):
    print(f"{'variant':<26} {'size':<12} {'median ms':>10}  verified")
    wrong = 0
    for row in rows:
        verified = row.get("verified", row.get("verification", {}).get("passed"))
        wrong += not verified
        print(f"{row['variant']:<26} {row['size']:<12} {row['median_s'] * 1e3:>10.4f}  {'yes' if verified else 'NO'}")
    return 1 if wrong else 0
