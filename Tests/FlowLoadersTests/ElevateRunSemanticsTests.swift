import FlowModel
import Foundation
import Testing
@testable import FlowLoaders
import FlowRules

// Elevate's two API generations under the rules (`../shared/flow-libraries.md` §4): 0.4–0.6 `async`
// arguments are the task's ivars; 0.7 `background` blocks get launch arguments only as
// `task_args[:key]`, their ivars are nil, and each `launch` is a run of its own.

/// Findings of one Ruby file as `rule line [key]: message`.
private func verdicts(_ text: String) -> [String] {
    Analyzer().analyze(SourceLoader().load([SourceText(file: InputFile(path: "c.rb"), contents: text)]))
        .map { "\($0.rule) \($0.location?.line ?? 0) [\($0.key ?? "-")]: \($0.message)" }
}

@Suite("Elevate: what each API generation gives a task at run time")
struct ElevateRunSemanticsTests {
    @Test("0.7: an @ivar used in background is nil, a missing-data-key naming it; task_args reads are checked against the launch")
    func sandboxIvars() {
        let found = verdicts("""
            class InvoiceController < UIViewController
              include Elevate

              def send_invoice(sender)
                @invoice = Invoice.current
                launch(:deliver, invoice_id: @invoice.id)
              end

              task :deliver do
                background do
                  pdf = PDFRenderer.render(@invoice.lines)
                  Mailer.send(pdf, to: task_args[:invoice_id])
                end
                on_finish do |result, exception|
                  @status_label.text = exception ? "failed" : "sent"
                end
              end
            end
            """)
        let missing = found.filter { $0.hasPrefix("missing-data-key") }
        #expect(missing.count == 1, "\(found)")
        #expect(missing.first?.hasPrefix("missing-data-key 11 [@invoice]") == true, "\(found)")
        #expect(!found.contains { $0.contains("[invoice_id]") }, "\(found)")
    }

    @Test("0.7: a key one launch passes and another does not is missing in the second run, and the finding names the launch lines")
    func launchesAreRuns() {
        let found = verdicts("""
            class SearchController < UITableViewController
              def search(query)
                launch(:search, query: query, page: 1)
              end

              def refresh
                launch(:search, query: @last_query)
              end

              task :search do
                background do
                  Catalog.search(task_args[:query], offset: task_args[:page] * 20)
                end
              end
            end
            """)
        let missing = found.filter { $0.hasPrefix("missing-data-key") }
        #expect(missing.count == 1, "\(found)")
        #expect(missing.first?.contains("[page]") == true)
        #expect(missing.first?.contains("the task is launched at line 3 (the launch at line 7 does not pass it)") == true, "\(found)")
    }

    @Test("a key only tested tolerates nil, in both generations; every launch passing a key is clean")
    func onlyTested() {
        let seventh = verdicts("""
            task :sync do
              background do
                raise Sync::Aborted if task_args[:abort]
                Sync.run(task_args[:scope], dry: task_args[:dry_run] ? true : false)
                Sync.flush unless @paused
              end
            end
            launch(:sync, scope: :contacts)
            launch(:sync, scope: :calendar, abort: false)
            """)
        #expect(!seventh.contains { $0.hasPrefix("missing-data-key") }, "\(seventh)")
        let fourth = verdicts("""
            class MailController
              def fetch
                @fetch_task = async folder: "inbox" do
                  task do
                    return [] if @offline
                    Mailbox.fetch(@folder)
                  end
                end
              end
            end
            """)
        #expect(!fourth.contains { $0.hasPrefix("missing-data-key") }, "\(fourth)")
    }

    @Test("0.4–0.6: async arguments are the task's ivars; an ivar no argument gives, when used, is missing")
    func asyncIvars() {
        let found = verdicts("""
            class UploadController
              def upload(photo)
                @upload_task = async photo: photo do
                  task do
                    Uploader.put(@photo, album: @album.id)
                  end
                end
              end
            end
            """)
        let missing = found.filter { $0.hasPrefix("missing-data-key") }
        #expect(missing.count == 1 && missing.first?.contains("[album]") == true, "\(found)")
    }
}
