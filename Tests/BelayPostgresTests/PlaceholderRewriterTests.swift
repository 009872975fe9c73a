@testable import BelayPostgres
import Testing

/// The repositories' `?` and `?N` placeholders as PostgreSQL's `$N`.
@Suite struct PlaceholderRewriterTests {
    @Test func plainPlaceholdersAreNumberedInOrder() {
        #expect(PlaceholderRewriter.rewriteUncached("SELECT * FROM t WHERE a = ? AND b = ?") == "SELECT * FROM t WHERE a = $1 AND b = $2")
    }

    @Test func numberedPlaceholdersKeepTheirNumberAndAPlainOneFollowsTheHighest() {
        #expect(PlaceholderRewriter.rewriteUncached("WHERE a = ?2 OR b = ?1 OR c = ?2") == "WHERE a = $2 OR b = $1 OR c = $2")
        #expect(PlaceholderRewriter.rewriteUncached("VALUES (?3, ?)") == "VALUES ($3, $4)")
        #expect(PlaceholderRewriter.rewriteUncached("LIMIT ?10") == "LIMIT $10")
        // Numbers a statement skips are known, so the arguments bound to them can be typed.
        #expect(PlaceholderRewriter.rewriteUncachedWithParameters("WHERE a = ?1 AND b = ?11").usedParameters == [1, 11])
    }

    @Test func quotedTextNamesAndCommentsAreLeftAlone() {
        #expect(PlaceholderRewriter.rewriteUncached("SELECT '?', \"a?b\" FROM t -- why?\nWHERE x = ?")
                    == "SELECT '?', \"a?b\" FROM t -- why?\nWHERE x = $1")
        #expect(PlaceholderRewriter.rewriteUncached("SELECT 'it''s ?' WHERE y = ?") == "SELECT 'it''s ?' WHERE y = $1")
    }

    @Test func renumberingMovesEveryPlaceholderUpAndLeavesQuotedTextAlone() {
        #expect(PlaceholderRewriter.renumbered("UPDATE t SET a = ?, b = '?' WHERE id = ?", after: 3) == "UPDATE t SET a = ?4, b = '?' WHERE id = ?5")
        #expect(PlaceholderRewriter.renumbered("VALUES (?2, ?1, ?)", after: 6) == "VALUES (?8, ?7, ?9)")
        #expect(PlaceholderRewriter.renumbered("SELECT 1", after: 2) == "SELECT 1")
    }

    @Test func aHeldChangeBecomesTheFirstWithOfTheChangeThatCarriesIt() {
        let rewriter = PlaceholderRewriter()
        let update = "UPDATE t SET a = ? WHERE id = ?"
        #expect(rewriter.merged(update, changeArguments: 2, into: "  INSERT INTO u (x) VALUES (?)")
                    == "WITH belay_change AS (UPDATE t SET a = ?1 WHERE id = ?2) INSERT INTO u (x) VALUES (?3)")
        #expect(rewriter.merged(update, changeArguments: 2, into: "WITH v AS (SELECT ?1 AS y) INSERT INTO u SELECT y FROM v")
                    == "WITH belay_change AS (UPDATE t SET a = ?1 WHERE id = ?2), v AS (SELECT ?3 AS y) INSERT INTO u SELECT y FROM v")
        // Asked again, the same text (it is kept), and the rewrite to $N numbers it as merged.
        let again = rewriter.merged(update, changeArguments: 2, into: "  INSERT INTO u (x) VALUES (?)")
        #expect(again.map { rewriter.rewrite($0).sql } == "WITH belay_change AS (UPDATE t SET a = $1 WHERE id = $2) INSERT INTO u (x) VALUES ($3)")
    }

    @Test func onlyAChangeCarriesAHeldChange() {
        let rewriter = PlaceholderRewriter()
        #expect(rewriter.merged("DELETE FROM t WHERE id = ?", changeArguments: 1, into: "SELECT * FROM t") == nil)
        #expect(rewriter.merged("DELETE FROM t WHERE id = ?", changeArguments: 1, into: "WITH RECURSIVE r AS (SELECT 1) DELETE FROM t") == nil)
        #expect(rewriter.rewrite("update t set a = 1").isPlainChange)
        #expect(!rewriter.rewrite("WITH v AS (SELECT 1) UPDATE t SET a = 1").isPlainChange)
        #expect(rewriter.rewrite("WITH v AS (SELECT 1) UPDATE t SET a = 1").canCarryChange)
        #expect(!rewriter.rewrite("SELECT 1").canCarryChange)
    }
}
