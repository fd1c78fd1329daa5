#[test]
fn today_is_a_pgn_date() {
    let today = super::today();
    let parts: Vec<&str> = today.split('.').collect();
    assert_eq!(parts.len(), 3, "{today}");
    assert!(parts[0].parse::<u32>().unwrap() >= 2024);
    assert!((1..=12).contains(&parts[1].parse::<u32>().unwrap()));
    assert!((1..=31).contains(&parts[2].parse::<u32>().unwrap()));
}

#[test]
fn the_date_is_the_local_date_where_the_game_is_played() {
    use jiff::tz::{Offset, TimeZone};
    // 03:30 UTC on 25 November is still the evening of the 24th at UTC-8.
    let instant: jiff::Timestamp = "2026-11-25T03:30:00Z".parse().unwrap();
    let pacific = instant.to_zoned_datetime(TimeZone::fixed(Offset::constant(-8)));
    assert_eq!(super::pgn_date(&pacific), "2026.11.24");
    let utc = instant.to_zoned_datetime(TimeZone::UTC);
    assert_eq!(super::pgn_date(&utc), "2026.11.25");
    // A POSIX TZ string, as a user may set it, needs no time zone database.
    let posix = TimeZone::posix("XYZ+10").unwrap();
    assert_eq!(
        super::pgn_date(&instant.to_zoned_datetime(posix)),
        "2026.11.24"
    );
}
