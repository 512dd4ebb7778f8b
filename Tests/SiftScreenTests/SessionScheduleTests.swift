import Testing

@testable import SiftScreen

@Suite struct SessionScheduleTests {
  private func request(_ id: Int, view: Int = 0, _ purpose: RunRequest.Purpose = .list, typing: Bool)
    -> RunRequest
  {
    RunRequest(id: id, view: view, purpose: purpose, query: "q\(id)", afterPause: typing)
  }

  @Test func aRequestWhileTypingWaitsForThePause() {
    var schedule = RunSchedule()
    #expect(schedule.ask(request(1, typing: true), now: 1000) == nil)
    #expect(schedule.due(now: 1000 + RunSchedule.pause - 1).isEmpty)
    #expect(schedule.due(now: 1000 + RunSchedule.pause).map(\.id) == [1])
    #expect(schedule.nextDue == nil)
  }

  @Test func eachKeyPushesThePauseBackAndOnlyTheLastQueryRuns() {
    var schedule = RunSchedule()
    _ = schedule.ask(request(1, typing: true), now: 1000)
    _ = schedule.ask(request(2, typing: true), now: 1100)
    #expect(schedule.due(now: 1000 + RunSchedule.pause).isEmpty)
    #expect(schedule.due(now: 1100 + RunSchedule.pause).map(\.id) == [2])
  }

  @Test func aRequestNotWhileTypingStartsAtOnceAndDropsAWaitingOne() {
    var schedule = RunSchedule()
    _ = schedule.ask(request(1, typing: true), now: 0)
    #expect(schedule.ask(request(2, typing: false), now: 10)?.id == 2)
    #expect(schedule.due(now: 10_000).isEmpty)
  }

  @Test func otherViewsAndPurposesDoNotReplaceEachOther() {
    var schedule = RunSchedule()
    _ = schedule.ask(request(1, typing: true), now: 0)
    _ = schedule.ask(request(2, view: 1, typing: true), now: 0)
    _ = schedule.ask(request(3, .values(field: "status"), typing: true), now: 0)
    #expect(schedule.due(now: RunSchedule.pause).map(\.id) == [1, 2, 3])
  }

  @Test func aNewerRunCancelsTheOlderOfTheSameViewAndPurpose() {
    var schedule = RunSchedule()
    let first = schedule.start(request(1, typing: false))
    let badge = schedule.start(request(2, .badge, typing: false))
    let second = schedule.start(request(3, typing: false))
    #expect(first.isCancelled)
    #expect(!badge.isCancelled)
    #expect(!second.isCancelled)
  }
}
