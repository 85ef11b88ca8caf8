use super::*;
use crate::ir::{Cell, ColumnType, NumberFormat};

/// Write `content` as `name` in a fresh temp dir and load it.
fn load_bytes(name: &str, content: &[u8]) -> (tempfile::TempDir, Result<Table, TableError>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(name);
    std::fs::write(&path, content).expect("write");
    let result = load_table(&path);
    (dir, result)
}

fn load_str(name: &str, content: &str) -> Table {
    let (_dir, result) = load_bytes(name, content.as_bytes());
    result.unwrap_or_else(|e| panic!("{name} should load: {e}"))
}

/// Load, expect an error, and return it with its message minus the temp dir.
fn load_err(name: &str, content: &[u8]) -> (TableError, String) {
    let (dir, result) = load_bytes(name, content);
    let err = result.expect_err("should fail");
    let prefix = format!("{}/", dir.path().display());
    let message = err.to_string().replace(&prefix, "");
    (err, message)
}

#[test]
fn wide_csv_with_years_and_units() {
    let t = load_str(
        "sales.csv",
        "Year,Revenue,Margin,Staff\n2019,\"$1,234.5\",12.5%,\"1,200\"\n2020,$980,−3%,950\n2021,NA,4.25%,-\n",
    );
    assert_eq!(t.id, "sales");
    assert_eq!(t.index.ctype, ColumnType::Year);
    assert_eq!(
        t.index.cells,
        vec![Cell::Year(2019), Cell::Year(2020), Cell::Year(2021)]
    );
    assert_eq!(t.series_names(), vec!["Revenue", "Margin", "Staff"]);
    let revenue = &t.series[0];
    assert_eq!(revenue.ctype, ColumnType::Number);
    assert_eq!(
        revenue.cells,
        vec![Cell::Number(1234.5), Cell::Number(980.0), Cell::Missing]
    );
    assert_eq!(
        revenue.format,
        NumberFormat {
            decimals: 1,
            prefix: Some("$".into()),
            suffix: None,
            thousands: true
        }
    );
    let margin = &t.series[1];
    assert_eq!(margin.values(), vec![Some(12.5), Some(-3.0), Some(4.25)]);
    assert_eq!(margin.format.suffix.as_deref(), Some("%"));
    assert_eq!(margin.format.decimals, 2);
    assert_eq!(t.series[2].values(), vec![Some(1200.0), Some(950.0), None]);
    assert!(
        t.source_path
            .as_deref()
            .is_some_and(|p| p.ends_with("sales.csv"))
    );
}

#[test]
fn index_types() {
    let t = load_str("d.csv", "Month,Sales\nMar 2021,1\nApr 2021,2\n2021-05,3\n");
    assert_eq!(t.index.ctype, ColumnType::Date);
    assert_eq!(t.category_labels(), vec!["2021-03", "2021-04", "2021-05"]);
    let t = load_str("d2.csv", "Day,Sales\n2021/03/04,1\n2021-03-05,2\n");
    assert_eq!(
        t.index.cells,
        vec![
            Cell::Date("2021-03-04".into()),
            Cell::Date("2021-03-05".into())
        ]
    );
    let t = load_str("n.csv", "Rank,Score\n1,10\n2,9\n10,3\n");
    assert_eq!(t.index.ctype, ColumnType::Number);
    let t = load_str("c.csv", "Country,GDP\nFrance,2.9\nUnited States,25.4\n");
    assert_eq!(t.index.ctype, ColumnType::Text);
    assert_eq!(t.index.cells[1], Cell::Text("United States".into()));
    // Years outside 1800..=2100 in the index are plain numbers.
    let t = load_str("y.csv", "Code,Value\n1500,1\n2019,2\n");
    assert_eq!(t.index.ctype, ColumnType::Number);
    // A series named like "year" holds years; otherwise numbers.
    let t = load_str(
        "s.csv",
        "Company,Founded,Employees\nAcme,1999,120\nGlobex,2004,80\n",
    );
    assert_eq!(
        t.series[0].ctype,
        ColumnType::Number,
        "header does not say year"
    );
    assert_eq!(t.series[1].ctype, ColumnType::Number);
    let t = load_str("s2.csv", "Company,Year founded\nAcme,1999\nGlobex,2004\n");
    assert_eq!(t.series[0].ctype, ColumnType::Year);
    assert_eq!(t.series[0].cells[0], Cell::Year(1999));
}

#[test]
fn quarter_indexes_read_as_ordered_quarters() {
    let t = load_str(
        "q.csv",
        "period,Sales\n1974Q1,1\n1974Q2,2\nQ3 1974,3\n1974-Q4,4\n",
    );
    assert_eq!(t.index.ctype, ColumnType::Text);
    assert_eq!(
        t.category_labels(),
        vec!["1974 Q1", "1974 Q2", "1974 Q3", "1974 Q4"]
    );
    assert!(crate::table::reduce::is_ordered(&t));
    // One cell that is no quarter leaves the column as text as written.
    let t = load_str("q2.csv", "period,Sales\n1974Q1,1\nLater,2\n");
    assert_eq!(t.category_labels(), vec!["1974Q1", "Later"]);
}

#[test]
fn missing_markers_become_missing() {
    let t = load_str("m.csv", "k,v\na,NA\nb,\nc,-\nd,null\ne,N/A\nf,1\n");
    assert_eq!(
        t.series[0].values(),
        vec![None, None, None, None, None, Some(1.0)]
    );
}

#[test]
fn tsv_and_bom_and_blank_rows() {
    let t = load_str("t.tsv", "\u{feff}City\tRent\nOslo\t1,500\nLima\t420\n\t\n");
    assert_eq!(t.index.name, "City");
    assert_eq!(t.series[0].values(), vec![Some(1500.0), Some(420.0)]);
}

#[test]
fn json_records_and_columns_rows() {
    let t = load_str(
        "r.json",
        r#"[{"fruit": "Apple", "share": 40.5}, {"fruit": "Pear", "share": null}, {"fruit": "Fig", "share": "59.5%"}]"#,
    );
    assert_eq!(t.index.ctype, ColumnType::Text);
    assert_eq!(t.series[0].values(), vec![Some(40.5), None, Some(59.5)]);
    assert_eq!(t.series[0].format.suffix.as_deref(), Some("%"));
    let t = load_str(
        "c.json",
        r#"{"columns": ["year", "a", "b"], "rows": [[2020, 1, "2"], [2021, 3.5, 4]]}"#,
    );
    assert_eq!(t.index.ctype, ColumnType::Year);
    assert_eq!(t.series[0].values(), vec![Some(1.0), Some(3.5)]);
    assert_eq!(t.series[0].format.decimals, 1);
}

#[test]
fn mixed_series_column_is_not_long() {
    // One number among the series names: not a long table but a wide one with
    // a bad cell, reported as such rather than pivoted into nonsense.
    let (_, msg) = load_err(
        "mixed.csv",
        b"category,series,value\nNorth,2022,1\nSouth,Cars,7\n",
    );
    assert_eq!(
        msg,
        "mixed.csv: line 3, column 2 (\"series\"): non-numeric value \"Cars\" in a numeric series"
    );
}

#[test]
fn long_format_pivot_keeps_order() {
    let t = load_str(
        "long.csv",
        "category,series,value\nNorth,Cars,10\nSouth,Cars,7\nNorth,Vans,3\nWest,Vans,1.5\n",
    );
    assert_eq!(t.category_labels(), vec!["North", "South", "West"]);
    assert_eq!(t.series_names(), vec!["Cars", "Vans"]);
    assert_eq!(
        t.series("Cars").map(|c| c.values()),
        Some(vec![Some(10.0), Some(7.0), None])
    );
    assert_eq!(
        t.series("Vans").map(|c| c.values()),
        Some(vec![Some(3.0), None, Some(1.5)])
    );
    assert_eq!(t.series[0].format.decimals, 1);
    // Years with categories repeating: long, and time labels the rows.
    let t = load_str(
        "long2.csv",
        "region,year,sales\nEast,2020,1\nEast,2021,2\nWest,2020,3\nWest,2021,4\n",
    );
    assert_eq!(t.category_labels(), vec!["2020", "2021"]);
    assert_eq!(t.series_names(), vec!["East", "West"]);
    assert_eq!(t.value("West", 1), Some(4.0));
    assert_eq!(t.meta.measure.as_deref(), Some("sales"));
}

#[test]
fn pivot_long_public() {
    // The first column names each row once: a wide table whose text column
    // is left out, not a long one.
    let wide = load_str("k.csv", "k,series,value\na,x,1\nb,x,2\n");
    assert_eq!(wide.series_names(), vec!["value"]);
    assert_eq!(wide.meta.notes.len(), 1, "{:?}", wide.meta.notes);
    let text = |s: &str| Cell::Text(s.into());
    let col = |name: &str, ctype, cells| crate::ir::Column {
        name: name.into(),
        ctype,
        format: NumberFormat::default(),
        cells,
    };
    let table = Table {
        id: "mem".into(),
        source_path: None,
        meta: Default::default(),
        index: col(
            "cat",
            ColumnType::Text,
            vec![text("a"), text("a"), text("b")],
        ),
        series: vec![
            col(
                "ser",
                ColumnType::Text,
                vec![text("x"), text("y"), text("x")],
            ),
            col(
                "val",
                ColumnType::Number,
                vec![Cell::Number(1.0), Cell::Number(2.0), Cell::Number(3.0)],
            ),
        ],
    };
    let wide = pivot_long(&table).expect("pivot");
    assert_eq!(wide.series_names(), vec!["x", "y"]);
    assert_eq!(wide.value("x", 1), Some(3.0));
    assert_eq!(wide.value("y", 1), None);
    let mut dup = table.clone();
    dup.series[0].cells[1] = text("x");
    let err = pivot_long(&dup).expect_err("duplicate pair");
    assert_eq!(
        err.to_string(),
        "mem: line 3, column 1 (\"cat\"): duplicate (category, series) pair (\"a\", \"x\") in a long table (first on line 2)"
    );
}

#[test]
fn sidecar_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("t.csv"), "k,v\na,1\n").expect("write");
    std::fs::write(
        dir.path().join("t.meta.json"),
        r#"{"title": "Sales", "unit": "US$ million", "paragraph": "Extra.", "x_label": " "}"#,
    )
    .expect("write");
    let t = load_table(&dir.path().join("t.csv")).expect("load");
    assert_eq!(t.meta.title.as_deref(), Some("Sales"));
    assert_eq!(t.meta.unit.as_deref(), Some("US$ million"));
    assert_eq!(t.meta.paragraph.as_deref(), Some("Extra."));
    assert_eq!(t.meta.x_label, None, "blank values count as absent");
}

#[test]
fn bad_sidecar_names_the_sidecar() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("t.csv"), "k,v\na,1\n").expect("write");
    std::fs::write(
        dir.path().join("t.meta.json"),
        "{\n  \"title\": \"x\",\n  \"colour\": \"red\"\n}",
    )
    .expect("write");
    let err = load_table(&dir.path().join("t.csv")).expect_err("unknown key");
    let msg = err.to_string();
    assert!(msg.contains("t.meta.json: line 3, column"), "{msg}");
    assert!(msg.contains("unknown field `colour`"), "{msg}");
    std::fs::write(dir.path().join("t.meta.json"), "{\"title\": 3}").expect("write");
    let msg = load_table(&dir.path().join("t.csv"))
        .expect_err("bad type")
        .to_string();
    assert!(msg.contains("t.meta.json: line 1, column"), "{msg}");
    std::fs::write(dir.path().join("t.meta.json"), "{\"title\": ").expect("write");
    let msg = load_table(&dir.path().join("t.csv"))
        .expect_err("malformed")
        .to_string();
    assert!(
        msg.contains("t.meta.json: line 1, column 10: bad metadata sidecar: malformed JSON"),
        "{msg}"
    );
}

#[test]
fn errors_name_file_line_and_column() {
    let cases: &[(&str, &[u8], &str)] = &[
        (
            "ragged.csv",
            b"k,a,b\nx,1,2\ny,3\n",
            "ragged.csv: line 3: row has 2 cells but the header has 3",
        ),
        ("empty.csv", b"", "empty.csv: the table has no data rows"),
        (
            "header_only.csv",
            b"k,v\n",
            "header_only.csv: the table has no data rows",
        ),
        (
            "one_col.csv",
            b"k\na\nb\n",
            "one_col.csv: the table has no series columns (only an index column)",
        ),
        (
            "dup.csv",
            b"k,v,v\na,1,2\n",
            "dup.csv: line 1, column 3 (\"v\"): duplicate column header \"v\" (first used by column 2)",
        ),
        (
            "blank.csv",
            b"k,,w\na,1,2\n",
            "blank.csv: line 1, column 2: empty column header",
        ),
        (
            "text.csv",
            b"k,v,w\na,1,2\nb,3,x\n",
            "text.csv: line 3, column 3 (\"w\"): non-numeric value \"x\" in a numeric series",
        ),
        (
            "nan.csv",
            b"k,v\na,1\nb,NaN\n",
            "nan.csv: line 3, column 2 (\"v\"): value \"NaN\" is not a finite number (NaN and infinity cannot be charted)",
        ),
        (
            "inf.csv",
            b"k,v\na,inf\n",
            "inf.csv: line 2, column 2 (\"v\"): value \"inf\" is not a finite number (NaN and infinity cannot be charted)",
        ),
        (
            "units.csv",
            b"k,v\na,$1\nb,\xe2\x82\xac2\n",
            "units.csv: line 3, column 2 (\"v\"): value \"\u{20ac}2\" uses unit \"\u{20ac}\" but the column uses \"$\"",
        ),
        (
            "allmissing.csv",
            b"k,v\na,\nb,NA\n",
            "allmissing.csv: no column holds numbers to chart (text columns: \"k\"; empty columns: \"v\")",
        ),
        (
            "nolabel.csv",
            b"k,v\na,1\n,2\n",
            "nolabel.csv: line 3, column 1 (\"k\"): missing category label in the index column",
        ),
        (
            "duplabel.csv",
            b"k,v\na,1\nb,2\na,3\n",
            "duplabel.csv: line 4, column 1 (\"k\"): duplicate category \"a\" (first on line 2)",
        ),
        (
            "utf8.csv",
            b"k,v\na,1\n\xff\xfe,2\n",
            "utf8.csv: line 3, column 1 (\"k\"): invalid UTF-8",
        ),
        (
            "utf8.json",
            b"[{\"k\": \"a\",\n \"v\": \"\xff\"}]",
            "utf8.json: line 2, column 8: invalid UTF-8",
        ),
        (
            "bad.json",
            b"[{\"k\": \"a\", \"v\": 1},\n {\"k\": \"b\" \"v\": 2}]",
            "bad.json: line 2, column 12: malformed JSON: expected `,` or `}`",
        ),
        (
            "nested.json",
            b"[{\"k\": \"a\", \"v\": 1},\n {\"k\": \"b\", \"v\": [2]}]",
            "nested.json: line 2, column 2 (\"v\"): a cell holds a JSON array or object; cells must be strings, numbers or null",
        ),
        (
            "ragged.json",
            b"{\"columns\": [\"k\", \"v\"],\n \"rows\": [\n  [\"a\", 1],\n  [\"b\"]\n]}",
            "ragged.json: line 4: row has 1 cells but the header has 2",
        ),
        (
            "jtext.json",
            b"{\"columns\": [\"k\", \"v\"],\n \"rows\": [\n  [\"a\", 1],\n  [\"b\", \"lots\"]\n]}",
            "jtext.json: line 4, column 2 (\"v\"): non-numeric value \"lots\" in a numeric series",
        ),
        (
            "shape.json",
            b"42",
            "shape.json: unexpected JSON shape: expected an array of records or an object with \"columns\" and \"rows\"",
        ),
        (
            "dupair.csv",
            b"category,series,value\nA,x,1\nA,y,2\nA,x,3\n",
            "dupair.csv: line 4, column 1 (\"category\"): duplicate (category, series) pair (\"A\", \"x\") in a long table (first on line 2)",
        ),
        (
            "notes.txt",
            b"k,v\na,1\n",
            "notes.txt: unsupported file type (expected .csv, .tsv or .json)",
        ),
        (
            "x.meta.json",
            b"{}",
            "x.meta.json: this is a metadata sidecar, not a table",
        ),
    ];
    for (name, content, expected) in cases {
        let (_err, message) = load_err(name, content);
        assert_eq!(&message, expected, "for {name}");
    }
}

#[test]
fn size_limits() {
    let mut huge = String::from("k,v\n");
    for r in 0..=MAX_ROWS {
        huge.push_str(&format!("c{r},{r}\n"));
    }
    let (_, msg) = load_err("huge.csv", huge.as_bytes());
    assert_eq!(
        msg,
        format!(
            "huge.csv: line {}: more than {MAX_ROWS} rows: too large for a chart",
            MAX_ROWS + 2
        )
    );
}

#[test]
fn load_tables_folders_sorted_and_errors_collected() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    std::fs::write(p.join("b.csv"), "k,v\na,1\n").expect("write");
    std::fs::write(p.join("a.tsv"), "k\tv\na\t1\n").expect("write");
    std::fs::write(p.join("a.meta.json"), "{\"title\": \"A\"}").expect("write");
    std::fs::write(p.join("c.json"), "[{\"k\": \"a\", \"v\": \"x\"}]").expect("write");
    std::fs::write(p.join("d.csv"), "k,v\na,2\n").expect("write");
    std::fs::write(p.join("readme.md"), "not a table").expect("write");
    let (tables, errors) = load_tables(&[p.to_path_buf()], false);
    let ids: Vec<&str> = tables.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, vec!["a", "b", "d"]);
    assert_eq!(tables[0].meta.title.as_deref(), Some("A"));
    assert_eq!(errors.len(), 1);
    assert!(errors[0].file.ends_with("c.json"));
    let (tables, errors) = load_tables(&[p.to_path_buf()], true);
    assert_eq!(tables.len(), 2, "strict stops at c.json");
    assert_eq!(errors.len(), 1);
    // The same id twice is an error for the second.
    std::fs::write(p.join("b.json"), "[{\"k\": \"a\", \"v\": 1}]").expect("write");
    let (tables, errors) = load_tables(&[p.join("b.csv"), p.join("b.json")], false);
    assert_eq!(tables.len(), 1);
    assert!(
        errors[0]
            .to_string()
            .contains("table id \"b\" is also used by"),
        "{}",
        errors[0]
    );
    let (_, errors) = load_tables(&[p.join("missing.csv")], false);
    assert!(
        errors[0].to_string().contains("missing.csv: cannot read"),
        "{}",
        errors[0]
    );
}

#[test]
fn write_then_load_is_identity() {
    let src = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        src.path().join("t.csv"),
        "Year,Revenue,Margin,Big,Tiny\n2019,\"$1,234.5\",12.50%,1.2e6,0.0015\n2020,-$980,−3%,NA,2.5e-3\n",
    )
    .expect("write");
    std::fs::write(
        src.path().join("t.meta.json"),
        r#"{"title": "T", "source": "Illustrative data"}"#,
    )
    .expect("write");
    let original = load_table(&src.path().join("t.csv")).expect("load");
    let out = tempfile::tempdir().expect("tempdir");
    let written = write_table(&original, out.path()).expect("write");
    let text = std::fs::read_to_string(&written).expect("read");
    assert_eq!(
        text,
        "Year,Revenue,Margin,Big,Tiny\n2019,\"$1,234.5\",12.50%,1200000,0.0015\n2020,-$980.0,-3.00%,,0.0025\n"
    );
    let mut reloaded = load_table(&written).expect("reload");
    assert!(out.path().join("t.meta.json").exists());
    reloaded.source_path = original.source_path.clone();
    assert_eq!(reloaded, original);
    // Empty metadata writes no sidecar (and removes a stale one).
    let mut bare = original.clone();
    bare.meta = crate::ir::TableMeta::default();
    write_table(&bare, out.path()).expect("write");
    assert!(!out.path().join("t.meta.json").exists());
}

proptest::proptest! {
    /// Whatever a column's format, a printed value parses back to itself.
    #[test]
    fn format_value_parses_back(
        mantissa in -10_000_000_000i64..10_000_000_000i64,
        decimals in 0u8..6,
        unit in 0usize..4,
        thousands in proptest::bool::ANY,
    ) {
        let value = mantissa as f64 / 10f64.powi(i32::from(decimals));
        let value = format!("{value:.d$}", d = usize::from(decimals)).parse::<f64>().expect("number");
        let (prefix, suffix) = [(None, None), (Some("$"), None), (None, Some("%")), (Some("€"), None)][unit];
        let format = NumberFormat {
            decimals,
            prefix: prefix.map(str::to_string),
            suffix: suffix.map(str::to_string),
            thousands,
        };
        let printed = format_value(value, &format);
        let parsed = infer::parse_number(&printed).expect("parses");
        proptest::prop_assert_eq!(parsed.value, value, "{}", printed);
        proptest::prop_assert_eq!(parsed.decimals, decimals);
        proptest::prop_assert_eq!(parsed.prefix.as_deref(), prefix);
        proptest::prop_assert_eq!(parsed.suffix.as_deref(), suffix);
        proptest::prop_assert_eq!(parsed.thousands, thousands && value.abs() >= 1000.0);
    }
}

#[test]
fn chart_ids_do_not_depend_on_where_the_table_lies() {
    let csv = "Year,Sales\n2019,10\n2020,12\n2021,9\n";
    let (_a, first) = load_bytes("sales.csv", csv.as_bytes());
    let (_b, second) = load_bytes("sales.csv", csv.as_bytes());
    let (first, second) = (first.unwrap(), second.unwrap());
    assert_ne!(first.source_path, second.source_path);
    let style = crate::spec::builtin_themes().remove(0);
    let kind = crate::spec::suitable_kinds(&first)[0];
    let spec = |t: &Table| crate::spec::single(t, kind, &style).unwrap();
    assert_eq!(spec(&first).fingerprint(), spec(&second).fingerprint());
    assert!(!serde_json::to_string(&first).unwrap().contains("sales.csv"));
}
