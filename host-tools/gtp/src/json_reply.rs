//! The replies of KataGo's JSON analysis protocol as types: each derives `Serialize` with
//! its fields in the order KataGo writes them (the protocol's names, camel case), so that
//! an answer line is one of these serialized ([`line`](fn@line)). `docs/GTP.md` lists every field.

use serde::Serialize;

/// One analysed turn (see `json_engine`'s documentation).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnReply<'a> {
    /// The query's id.
    pub id: &'a str,
    /// Always false: an answer is final at once.
    pub is_during_search: bool,
    /// The turn analysed.
    pub turn_number: usize,
    /// One per database move of the side to move, most played first.
    pub move_infos: Vec<MoveInfo>,
    /// All those games together.
    pub root_info: RootInfo,
    /// With `includePolicy`: each point's share, row-major from the top left, then the
    /// pass (0 for another legal move, -1 for an illegal one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<Vec<f64>>,
}

/// One database move of a turn.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveInfo {
    /// The move as a GTP vertex.
    #[serde(rename = "move")]
    pub mv: String,
    /// Games that played it.
    pub visits: u32,
    /// Wins of the reported colour among them.
    pub winrate: f64,
    /// Its share of the side's moves.
    pub prior: f64,
    /// Its rank, from 0.
    pub order: usize,
    /// The move alone.
    pub pv: [String; 1],
    /// 0: the database has no score estimate.
    pub score_lead: f64,
    /// 0, as `score_lead`.
    pub score_mean: f64,
}

/// A turn's totals.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RootInfo {
    /// The side to move (`B` or `W`).
    pub current_player: &'static str,
    /// All the games of its moves.
    pub visits: u64,
    /// Wins of the reported colour among them.
    pub winrate: f64,
    /// 0: the database has no score estimate.
    pub score_lead: f64,
}

/// A query refused: its reason, its id when it has one, the field at fault.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorReply<'a> {
    /// Why.
    pub error: &'a str,
    /// The query's id, if it could be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
    /// The field at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'a str>,
}

/// A warning before a query's answers (an index without games of the board's size).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WarningReply<'a> {
    /// What is wrong.
    pub warning: String,
    /// The field it concerns.
    pub field: &'a str,
    /// The query's id.
    pub id: &'a str,
}

/// A reply as one line of JSON (without its line feed).
pub fn line(reply: &impl Serialize) -> String {
    // Plain structs of strings and numbers: serializing them cannot fail.
    serde_json::to_string(reply).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed replies print what `serde_json::json!` printed for the same values, key
    /// order and number formatting included.
    #[test]
    fn the_replies_print_as_the_protocol_writes_them() {
        let turn = TurnReply {
            id: "q",
            is_during_search: false,
            turn_number: 3,
            move_infos: vec![MoveInfo {
                mv: "Q16".into(),
                visits: 2,
                winrate: 0.5,
                prior: 1.0,
                order: 0,
                pv: ["Q16".into()],
                score_lead: 0.0,
                score_mean: 0.0,
            }],
            root_info: RootInfo {
                current_player: "B",
                visits: 2,
                winrate: 0.5,
                score_lead: 0.0,
            },
            policy: None,
        };
        let want = serde_json::json!({
            "id": "q", "isDuringSearch": false, "turnNumber": 3,
            "moveInfos": [{"move": "Q16", "visits": 2, "winrate": 0.5, "prior": 1.0,
                "order": 0, "pv": ["Q16"], "scoreLead": 0.0, "scoreMean": 0.0}],
            "rootInfo": {"currentPlayer": "B", "visits": 2, "winrate": 0.5, "scoreLead": 0.0},
        });
        assert_eq!(line(&turn), want.to_string());
        let with_policy = TurnReply {
            policy: Some(vec![0.25, -1.0, 0.0]),
            ..turn
        };
        let mut want = want;
        want["policy"] = serde_json::json!([0.25, -1.0, 0.0]);
        assert_eq!(line(&with_policy), want.to_string());
        let e = ErrorReply {
            error: "no",
            id: Some("q"),
            field: Some("moves"),
        };
        assert_eq!(
            line(&e),
            serde_json::json!({"error": "no", "id": "q", "field": "moves"}).to_string()
        );
        let e = ErrorReply {
            error: "no id",
            id: None,
            field: Some("id"),
        };
        assert_eq!(
            line(&e),
            serde_json::json!({"error": "no id", "field": "id"}).to_string()
        );
    }
}
