/// The version `sift --version` prints.
let siftVersion = "0.1.0"

/// What `sift --help` prints: usage, every option, and an example of every query form.
let helpText = """
  sift \(siftVersion): filter CSV, TSV, JSON and NDJSON records with a compact search language

  Usage:
    sift [OPTIONS] QUERY [FILE...]
    sift [OPTIONS] @VIEW [QUERY] [FILE...]
    sift --fields [FILE...]      list fields: name, type, non-empty count, sample values
    sift --views                 the views overview

  QUERY is one argument: quote it. '' matches everything. FILE '-' or none: standard input.
  A query that starts with '-' goes after '--':  sift -- '-status:cancelled' grn.csv

  Options:
    -f, --format FORMAT      input format: csv, tsv, json, ndjson (default: by extension)
    -o, --output FORMAT      output format: table, csv, tsv, json, ndjson, markdown
    -d, --delimiter C        CSV field delimiter: one character, or \\t
        --encoding NAME      input text: utf-8 (default), latin-1, windows-1252
        --no-header          CSV/TSV has no header row; fields are named 1, 2, ...
    -c, --count              print only the number of matching records (per group with group:)
    -q, --quiet              no feedback bar
        --summary STYLE      how the feedback bar is written: bar, text, json, none
        --color WHEN         colour: auto, always, never
        --ascii              plain ASCII in the feedback bar
        --now DATETIME       the reference time for relative dates (also SIFT_NOW)
        --explain            print the canonical query; with a FILE, also its plan
        --skip-bad           skip malformed records instead of stopping
        --config FILE        the views file
        --reset              with @VIEW: drop the view's preset query, keep its sort
        --fields             list the fields of the input
        --views              list the views
    -h, --help               this help
        --version            print the version

  Filters:
    status:received                  the field equals the value (case-insensitive)
    status:received,pending          any of the values
    qty:>10  qty:>=10  qty:<10  qty:<=10
                                     comparison: numeric, by date, else text order
    qty:10..50  qty:10..*  qty:*..50 inclusive range, open-ended with *
    date:2024-01-01..2024-03-31      date range
    date:2024-03                     a partial date means the whole month (or year)
    customer:acme*  sku:*-00*        glob: * is any run of characters
    item:/bolt\\s+m\\d+/i              regular expression; i: case-insensitive
    customer:""                      the field is empty or missing
    has:customer                     the field is present and non-empty
    empty_stock:on                   switch: on yes true 1 y / off no false 0 n
    acme  "acme inc"                 free text in any field
    "GRN No":42  customer:"Acme Inc" quoted field names and values
    -status:cancelled                NOT status:cancelled: negation
    status:pending OR qty:0          either
    (status:pending OR qty:0) date:this-week
                                     grouping; terms side by side (or AND) must all match

  Relative dates:
    date:today  date:yesterday  date:this-week  date:last-week  date:this-month
    date:last-month  date:this-year  date:last-year  date:last-7d  date:last-2w  date:last-3m
    date:<this-month  date:last-week..today

  Directives (not filters):
    sort:date  sort:-date,customer   sort keys; - for descending
    group:customer                   group by a field
    limit:20                         the first 20 records
    fields:grn_no,date,customer      output only these fields, in this order

  Examples:
    sift 'status:received customer:"Acme" sort:-date group:customer' grn.csv
    sift 'qty:10..50 -status:cancelled,quality-hold' grn.csv
    sift --explain '(status:pending OR qty:0) date:this-week'

  Exit status: 0 records matched, 1 none matched, 2 error.

  """
