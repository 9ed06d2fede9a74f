import Foundation
import FlowModel
import Testing
@testable import FlowLoaders

// IR-level tests of the Elevate loader (`Sources/FlowLoaders/Elevate`): the two task DSLs, every
// lifecycle callback, the Ruby it must read without being a Ruby parser, and what it reports when it
// cannot read a file. Fixtures are in memory; lines and columns are 1-based, as in the fixture text.
//
// This target depends on FlowLoaders only, so the rules themselves are exercised elsewhere: the
// examples of `ui-access-in-task` (Ruby files, run through every rule by RuleExampleTests), and here,
// the exact facts `missing-data-key` and `ui-access-in-task` read (initial data, reads, calls).

// MARK: - Helpers

/// Loads Ruby text as the file `x.rb` (or `file`) through the same entry point as the CLI.
private func loadRuby(_ text: String, file: String = "x.rb") -> FlowGraph {
    SourceLoader().load([SourceText(file: InputFile(path: file), contents: text)])
}

/// The one flow of `graph`.
private func onlyFlow(_ graph: FlowGraph, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Flow {
    try #require(graph.flows.count == 1, "flows: \(graph.flows.map(\.id)), findings: \(findings(graph))", sourceLocation: sourceLocation)
    return graph.flows[0]
}

/// Each step as `id kind`.
private func steps(_ flow: Flow) -> [String] { flow.steps.map { "\($0.id) \($0.kind.rawValue)" } }

/// Each transition as `from -> to (label)`, with ` [error]` for error transitions.
private func edges(_ flow: Flow) -> [String] {
    flow.transitions.map { t in
        "\(t.from) -> \(t.to)" + (t.label.map { " (\($0))" } ?? "") + (t.kind == .error ? " [error]" : "")
    }
}

/// Accesses as `key@line:col`, with ` optional` for optional reads and `: Type = value` when known.
private func accesses(_ list: [DataAccess]) -> [String] {
    list.map { a in
        var text = a.key
        if let type = a.type { text += ": \(type.spelling)" }
        if let value = a.value { text += " = \(value)" }
        text += "@\(a.location?.line ?? 0):\(a.location?.column ?? 0)"
        return text + (a.optional ? " optional" : "")
    }
}

/// Calls as `receiver|name@line`, `-` for no receiver.
private func calls(_ step: Step?) -> [String] {
    (step?.calls ?? []).map { "\($0.receiver ?? "-")|\($0.name)@\($0.location?.line ?? 0)" }
}

/// Load findings as `line:col message`.
private func findings(_ graph: FlowGraph) -> [String] {
    graph.loadFindings.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" }
}

/// The package root (where Package.swift is), found from this file.
private let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}()

/// The README example of Elevate 0.4, inside a controller.
private let readmeLogin = """
    class LoginController < UIViewController
      include Elevate

      def login
        @login_task = async username: username.text, password: password.text do
          task do
            # The @username and @password instance variables correspond to the args
            credentials = API.login(@username, @password)
            if credentials
              UserRegistration.store(credentials.username, credentials.token)
            end
            credentials != nil
          end

          on_started do
            SVProgressHUD.showWithStatus("Logging In...")
          end

          on_completed do |result, exception|
            SVProgressHUD.dismiss
            if exception == nil
              alert(result ? "Logged in successfully!" : "Invalid username/password!")
            else
              alert(exception)
            end
          end
        end
      end
    end
    """

/// Every part of the 0.7 DSL.
private let artworkTask = """
    class ArtworkController < UIViewController
      include Elevate

      def viewDidLoad
        super
        launch(:download, artwork_id: 42, size: "full")
      end

      def retry(sender)
        launch :download, artwork_id: @artwork.id, quality: :high
      end

      task :download, repeats: false do
        timeout 30

        background do
          response = Elevate::HTTP.get("/artworks/#{@artwork_id}?size=#{@size}")
          update :downloaded
          UIImage.imageWithData(response.body) if @quality
        end

        on_start do
          SVProgressHUD.showWithStatus("Downloading")
        end

        on_update do |stage|
          puts stage
        end

        on_timeout do |error|
          SVProgressHUD.showErrorWithStatus("Too slow")
        end

        on_request_failed do |error|
          SVProgressHUD.showErrorWithStatus("Failed")
        end

        on_error do |error|
          SVProgressHUD.showErrorWithStatus(error.message)
        end

        on_finish do |image, exception|
          SVProgressHUD.dismiss
        end
      end
    end
    """

// MARK: - The two DSLs

@Suite("Elevate loader: the task DSLs")
struct ElevateDSLTests {
    @Test("0.4 async (the README example): inputs, task, on_started before, on_completed after, an end and a fail")
    func asyncForm() throws {
        let graph = loadRuby(readmeLogin)
        #expect(graph.loadFindings.isEmpty, "\(findings(graph))")
        let flow = try onlyFlow(graph)
        #expect(flow.id == "LoginController.login_task")
        #expect(flow.name == "LoginController.login_task")
        #expect(flow.kind == .elevate)
        #expect(flow.location == FlowModel.SourceLocation(file: "x.rb", line: 5, column: 19))
        #expect(accesses(flow.initialData) == ["username@5:25", "password@5:50"])
        #expect(steps(flow) == ["on_started callback", "task operation", "on_completed callback", "finished end", "failed fail"])
        #expect(flow.entries == ["on_started"])
        #expect(edges(flow) == [
            "on_started -> task",
            "task -> on_completed (result)",
            "task -> on_completed [error]",
            "on_completed -> finished (no exception)",
            "on_completed -> failed (exception)",
        ])
        let task = try #require(flow.step("task"))
        #expect(task.location == FlowModel.SourceLocation(file: "x.rb", line: 6, column: 7))
        #expect(accesses(task.reads) == ["username@8:33", "password@8:44"])
        #expect(task.writes.isEmpty)
        #expect(task.details == ["runs in the background"])
        #expect(flow.step("on_started")?.details == ["UI thread, when the task is queued"])
        #expect(flow.step("on_completed")?.details == ["UI thread, after the task, with its result or exception", "receives result, exception"])
        #expect(flow.step("finished")?.location?.line == 27)
        #expect(flow.limitations.isEmpty)
    }

    @Test("0.4 async is named after the variable it is assigned to, else its method, else 'async'")
    func asyncNames() throws {
        let text = """
            class SearchController < UIViewController
              def search(query)
                async term: query do
                  task do
                    API.search(@term)
                  end
                end
                pending = async term: query do
                  task { API.search(@term) }
                end
              end
            end

            async x: 1 do
              task do
                @x
              end
            end
            """
        let graph = loadRuby(text)
        #expect(graph.flows.map(\.id) == ["SearchController.search", "SearchController.pending", "async"])
        #expect(graph.loadFindings.isEmpty, "\(findings(graph))")
    }

    @Test("Rake tasks and other libraries' async blocks are not Elevate tasks; in an Elevate controller an async without task block is reported")
    func notElevate() throws {
        let rake = loadRuby("""
            namespace :release do
              task :build do
                sh "gem build"
              end
              task :push => [:build] do
                sh "gem push"
              end
            end
            Async { |task| task.async { fetch } }
            """)
        #expect(rake.flows.isEmpty)
        #expect(rake.loadFindings.isEmpty, "\(findings(rake))")

        let elevate = loadRuby("""
            class WarmUpController < UIViewController
              include Elevate

              def warm_up
                async {}.tap { }
              end
            end
            """)
        #expect(findings(elevate) == ["5:5 'async' has no 'task do … end' block: nothing would run in the background"])
    }

    @Test("0.7 task: timeout, on_start, on_update, a named error handler, on_error, on_finish; launches give the inputs")
    func taskForm() throws {
        let graph = loadRuby(artworkTask)
        #expect(graph.loadFindings.isEmpty, "\(findings(graph))")
        let flow = try onlyFlow(graph)
        #expect(flow.id == "ArtworkController.download")
        #expect(flow.location == FlowModel.SourceLocation(file: "x.rb", line: 13, column: 3))
        // The union of both launches' keys; a key passed with different values keeps neither value.
        #expect(accesses(flow.initialData) == ["artwork_id@6:23", "size: String = \"full\"@6:39", "quality: Symbol = :high@10:48"])
        #expect(steps(flow) == [
            "on_start callback", "background operation", "on_update callback", "on_timeout callback",
            "on_request_failed callback", "on_error callback", "on_finish callback", "finished end", "failed fail",
        ])
        #expect(flow.entries == ["on_start"])
        #expect(edges(flow) == [
            "on_start -> background",
            "background -> on_update (reports progress)",
            "on_update -> background (goes on)",
            "background -> on_finish (result)",
            "background -> on_timeout (TimeoutError) [error]",
            "on_timeout -> on_finish",
            "background -> on_request_failed (RequestFailedError) [error]",
            "on_request_failed -> on_finish",
            "background -> on_error (any other error) [error]",
            "on_error -> on_finish",
            "on_finish -> finished (no exception)",
            "on_finish -> failed (exception)",
        ])
        let background = try #require(flow.step("background"))
        #expect(background.details == ["runs in the background", "times out after 30 s", "repeats: false"])
        // 0.7: the background block's @ivars are its sandbox's, never set (nil): reads of keys nothing
        // gives; one only tested (`if @quality`) tolerates nil.
        #expect(accesses(background.reads) == ["@artwork_id@17:49", "@size@17:69", "@quality@19:47 optional"])
        #expect(flow.step("on_timeout")?.details == ["UI thread, when the task raises TimeoutError", "receives error"])
        #expect(flow.step("on_error")?.details == ["UI thread, when the task raises another error", "receives error"])
        #expect(flow.step("on_update")?.details == ["UI thread, each time the task reports progress", "receives stage"])
        #expect(flow.transitions.first { $0.to == "on_timeout" }?.location?.line == 30)
    }

    @Test("0.7 task with a background block only: background → finished, and on error → failed")
    func minimalTask() throws {
        let flow = try onlyFlow(loadRuby("""
            class Sync
              include Elevate
              task :sync do
                background do
                  Store.sync(@since)
                end
              end
              def go = launch(:sync, since: 0)
            end
            """))
        #expect(steps(flow) == ["background operation", "finished end", "failed fail"])
        #expect(flow.entries == ["background"])
        #expect(edges(flow) == ["background -> finished", "background -> failed [error]"])
        #expect(accesses(flow.initialData) == ["since: Integer = 0@8:26"])
    }

    @Test("error handlers without on_finish lead to the fail; named handlers without on_error leave other errors to on_finish")
    func handlersWithoutFinish() throws {
        let withoutFinish = try onlyFlow(loadRuby("""
            task :a do
              background { 1 }
              on_timeout { |e| puts e }
              on_error { |e| puts e }
            end
            """))
        #expect(edges(withoutFinish) == [
            "background -> finished",
            "background -> on_timeout (TimeoutError) [error]",
            "on_timeout -> failed",
            "background -> on_error (any other error) [error]",
            "on_error -> failed",
        ])
        let withoutOnError = try onlyFlow(loadRuby("""
            task :b do
              background { 1 }
              on_timeout { |e| puts e }
              on_finish { |r, e| puts r }
            end
            """))
        #expect(edges(withoutOnError) == [
            "background -> on_finish (result)",
            "background -> on_timeout (TimeoutError) [error]",
            "on_timeout -> on_finish",
            "background -> on_finish (any other error) [error]",
            "on_finish -> finished (no exception)",
            "on_finish -> failed (exception)",
        ])
    }

    @Test("the callback names of both versions are read in both forms; worker is a background block; the last of a kind wins")
    func mixedNames() throws {
        let flow = try onlyFlow(loadRuby("""
            @t = async id: 1 do
              worker do
                Job.run(@id)
              end
              on_start do
                puts "first"
              end
              on_start do
                puts "second"
              end
              on_finish do |result, exception|
              end
            end
            """))
        #expect(steps(flow) == ["on_start callback", "worker operation", "on_finish callback", "finished end", "failed fail"])
        #expect(flow.step("on_start")?.location?.line == 8)
    }

    @Test("launch forms: parentheses or not, on a receiver, a hash, rocket keys; other tasks' launches are not this task's")
    func launchForms() throws {
        let flow = try onlyFlow(loadRuby("""
            class C
              def a; launch(:t, one: 1); end
              def b; launch :t, two: "2" if ready?; end
              def c; self.launch(:t, { three: 3.0 }); end
              def d; launch(:t, :four => true, "five" => [1, 2]); end
              def e; launch(:other, six: 6); end
              def f; @controller.launch(:t, seven: 7); end
              def g; launch(name, eight: 8); end

              task :t do
                background do
                  [@one, @two, @three, @four, @five, @seven]
                end
              end
            end
            """))
        #expect(accesses(flow.initialData) == [
            "one: Integer = 1@2:21", "two: String = \"2\"@3:21", "three: Float = 3.0@4:28",
            "four: Boolean = true@5:21", "five: Array = [1, 2]@5:36", "seven: Integer = 7@7:33",
        ])
        #expect(flow.summary == "Elevate task ':t', launched at lines 2, 3, 4, 5, 7")
        #expect(flow.limitations.isEmpty)
    }

    @Test("task_args[:key] is a required read in the background block and an optional one in a callback")
    func taskArgs() throws {
        let flow = try onlyFlow(loadRuby("""
            task :upload do
              background do
                Uploader.put(task_args[:photo], task_args.fetch(:album))
              end
              on_finish do |result, exception|
                Log.info(task_args["photo"]) if @verbose
              end
            end
            launch(:upload, photo: p, album: a)
            """))
        #expect(accesses(flow.step("background")!.reads) == ["photo@3:28", "album@3:53"])
        #expect(accesses(flow.step("on_finish")!.reads) == ["photo@6:24 optional"])
    }

    @Test("an ivar assigned before it is read is the block's own; @x ||= and @x += read it")
    func ivarAssignments() throws {
        let flow = try onlyFlow(loadRuby("""
            @t = async a: 1, b: 2 do
              task do
                @cache = {}
                @cache[:x] = 1
                @a ||= 0
                @b += 1
                @cache.size == 0 && @a != @b
              end
            end
            """))
        #expect(accesses(flow.step("task")!.reads) == ["a@5:5", "b@6:5"])
    }

    @Test("when the arguments cannot be known, reads are optional and the flow says why; with no reads it says nothing")
    func unknownInputs() throws {
        let notLaunched = try onlyFlow(loadRuby("""
            task :t do
              background { API.get(task_args[:id]) }
            end
            """))
        #expect(accesses(notLaunched.step("background")!.reads) == ["id@2:34 optional"])
        #expect(notLaunched.limitations.map(\.message) == [
            "task ':t' is not launched in this file, so the arguments it is given are unknown: the reads of 'id' are not checked",
        ])
        #expect(notLaunched.limitations.first?.location?.line == 1)

        let dynamic = try onlyFlow(loadRuby("""
            task :t do
              background { API.get(task_args[:id], task_args[:page]) }
            end
            launch(:t, id: 1)
            launch(:t, params)
            """))
        #expect(accesses(dynamic.initialData) == ["id: Integer = 1@4:12"])
        #expect(dynamic.step("background")!.reads.allSatisfy { $0.optional })
        #expect(dynamic.limitations.map(\.message) == [
            "a 'launch(:t, …)' passes arguments that are not written out as 'key: value': the reads of 'id', 'page' are not checked",
        ])

        let splat = try onlyFlow(loadRuby("""
            @t = async **options do
              task { API.get(@id) }
            end
            """))
        #expect(splat.limitations.count == 1)
        #expect(splat.step("task")!.reads.allSatisfy { $0.optional })

        let nothingRead = try onlyFlow(loadRuby("""
            task :ping do
              background { API.ping }
            end
            """))
        #expect(nothingRead.limitations.isEmpty)
    }

    @Test("several tasks in one file, in file order; a name used twice gets #2")
    func severalTasks() throws {
        let graph = loadRuby("""
            class A
              task :one do
                background { 1 }
              end
              task :two do
                background { 2 }
              end
              task :one do
                background { 3 }
              end
            end
            class B
              task :one do
                background { 4 }
              end
            end
            """)
        #expect(graph.flows.map(\.id) == ["A.one", "A.two", "A.one#2", "B.one"])
    }
}

// MARK: - Calls

@Suite("Elevate loader: calls of a background block")
struct ElevateCallTests {
    @Test("every call with its receiver as written; locals, block parameters and labels are not calls")
    func receivers() throws {
        let flow = try onlyFlow(loadRuby("""
            @t = async url: u do
              task do |context|
                items = API.fetch(@url).items
                view.addSubview(label)
                self.navigationController.pushViewController(next_controller, animated: true)
                UIAlertView.alloc.initWithTitle("Done", message: nil, delegate: nil).show
                SVProgressHUD.showWithStatus("Loading")
                view.backgroundColor = UIColor.redColor
                items.each { |item| Store.save(item, force: true) }
                count, total = Store.counts
                puts count + total
                Foo::Bar.baz(context)
                API.login(@url).token&.strip
              end
            end
            """))
        #expect(calls(flow.step("task")) == [
            "API|fetch@3", "API.fetch(@url)|items@3",
            "-|view@4", "view|addSubview@4", "-|label@4",
            "self|navigationController@5", "self.navigationController|pushViewController@5", "-|next_controller@5",
            "UIAlertView|alloc@6", "UIAlertView.alloc|initWithTitle@6", "UIAlertView.alloc.initWithTitle(\"Done\", message: nil, delegate: nil)|show@6",
            "SVProgressHUD|showWithStatus@7",
            "-|view@8", "view|backgroundColor=@8", "UIColor|redColor@8",
            "items|each@9", "Store|save@9",
            "Store|counts@10",
            "-|puts@11",
            "Foo::Bar|baz@12",
            "API|login@13", "API.login(@url)|token@13", "API.login(@url).token|strip@13",
        ])
    }

    @Test("calls inside a block dispatched to the main queue are not the background block's; callbacks record their own calls")
    func mainQueue() throws {
        let flow = try onlyFlow(loadRuby("""
            task :t do
              background do
                n = Store.sync
                Dispatch::Queue.main.async do
                  SVProgressHUD.showSuccessWithStatus("#{n} new")
                end
                NSOperationQueue.mainQueue.addOperationWithBlock { view.setNeedsLayout }
                Dispatch::Queue.concurrent.async { Store.compact }
                n
              end
              on_finish do |n, e|
                tableView.reloadData
              end
            end
            """))
        #expect(calls(flow.step("background")) == [
            "Store|sync@3", "Dispatch::Queue|main@4", "Dispatch::Queue.main|async@4",
            "NSOperationQueue|mainQueue@7", "NSOperationQueue.mainQueue|addOperationWithBlock@7",
            "Dispatch::Queue|concurrent@8", "Dispatch::Queue.concurrent|async@8", "Store|compact@8",
        ])
        #expect(calls(flow.step("on_finish")) == ["-|tableView@12", "tableView|reloadData@12"])
    }
}

// MARK: - Robustness

@Suite("Elevate loader: real Ruby")
struct ElevateRubyTests {
    @Test("blocks nested with if/unless/while/until/case/begin/for/def, one-line modifiers and brace blocks")
    func nesting() throws {
        let graph = loadRuby("""
            class Importer
              include Elevate

              task :import do
                background do
                  total = 0
                  rows = CSV.parse(@file) { |row| row.compact }
                  rows.each do |row|
                    next if row.empty?
                    total += 1 unless row.first.nil?
                    while queue.full? do sleep 0.1 end
                    until done?
                      retry_later
                    end
                    for cell in row do cell.strip! end
                    case row.first
                    when "x" then skip
                    when "y"
                      begin
                        Importer.save(row)
                      rescue StandardError => e
                        log e
                      ensure
                        flush
                      end
                    else
                      x = if total > 3 then :big else :small end
                    end
                    return total if total > 100
                    log "ok" if (total % 2).zero?
                  end
                  def helper = 42
                  total
                end

                on_finish do |total, exception|
                  label.text = total.to_s
                end
              end

              def start
                launch(:import, file: path)
              end

              def title=(value)
                @title = value
                super if value
                yield value unless value.nil?
                begin
                  retry_later
                end while pending?
              end

              def self.shared; @shared ||= new; end
              def ==(other) = other.is_a?(Importer)
              class << self
                def build(*args, &block) = new(*args, &block)
              end
            end
            """)
        #expect(graph.loadFindings.isEmpty, "\(findings(graph))")
        let flow = try onlyFlow(graph)
        #expect(steps(flow) == ["background operation", "on_finish callback", "finished end", "failed fail"])
        #expect(flow.step("on_finish")?.location?.line == 36)
        #expect(accesses(flow.step("background")!.reads) == ["@file@7:24"])
        #expect(flow.step("finished")?.location?.line == 39)
    }

    @Test("strings, heredocs, %-literals, regexps, symbols, labels and comments that contain end, do, { or #")
    func literals() throws {
        let graph = loadRuby("""
            =begin
            task :commented_out do
              background do
            =end
            class Notes
              include Elevate
              TEMPLATE = <<~EOS
                do this, then end
                } { #{:not_code}
              EOS
              task :save, note: "do end" do # end do {
                background do
                  a = "end do { \\" end"
                  b = 'end\\' do'
                  c = %w[end do] + %q(end (nested) do) + %i<end>
                  d = /end|do\\/[{]/ =~ @text
                  e = :end
                  f = { end: 1, do: 2, if: 3 }
                  g = range.end + range.begin
                  h = ?e
                  i = <<-ONE + <<~'TWO'
                  end of one
                  ONE
                    #{not interpolated} end
                  TWO
                  j = "#{@title.upcase} end"
                  k = "#@author do"
                  l = `echo end`
                  m = 10 / 2 / 5
                  n = [1, 2] if @text % 2 == 0
                  Store.put(a, b, c, d, e, f, g, h, i, j, k, l, m, n)
                end
                on_finish do |r, e|
                  puts "done"
                end
              end
              def save
                launch(:save, text: t, title: u, author: v)
              end
            end
            __END__
            task :after_end_marker do
              background do
            """)
        #expect(graph.loadFindings.isEmpty, "\(findings(graph))")
        let flow = try onlyFlow(graph)
        #expect(flow.id == "Notes.save")
        #expect(steps(flow) == ["background operation", "on_finish callback", "finished end", "failed fail"])
        #expect(flow.step("background")?.details == ["runs in the background", "note: \"do end\""])
        #expect(accesses(flow.step("background")!.reads) == ["@text@16:28", "@title@26:14", "@author@27:13"])
    }

    @Test("constructs from Ruby's standard library that once looked unbalanced")
    func standardLibraryConstructs() throws {
        let graph = loadRuby(#"""
            class Path
              def +(other)
                Path.new(plus(@path, other.to_s))
              end
              alias / +
              def /(other) = self + other
              def for(uri)
                @all
              end
              def module; @module; end
              def title=(value)
                @title = value
              end
              def command
                raise IOError, 'not opened yet'                   if not @socket or @socket.closed?
                @command
              end
              def history
                until versions.length == 0 or
                      versions.shift <= previous do
                  text << versions.first
                end
                if !(class<<main;ancestors;end).include?(Bundle)
                  x = [:$*, :$:, :$", :$LOAD_PATH]
                end
                next_specs = specs.
                  for(requested, false).
                  none? { |spec| spec.source == source }
              end
              class_eval <<-'end;', __FILE__, __LINE__ + 1
                def count
                  1
                end
              end;
              task :t do
                background { @title }
              end
              def launch_it = launch(:t, title: "x")
            end
            """#)
        #expect(graph.loadFindings.isEmpty, "\(findings(graph))")
        #expect(graph.flows.map(\.id) == ["Path.t"])
        #expect(accesses(graph.flows.first?.initialData ?? []) == ["title: String = \"x\"@38:30"])
    }

    @Test("Windows line ends, tabs and a file without a final line break")
    func lineEnds() throws {
        let text = "task :t do\r\n\tbackground do\r\n\t\tAPI.get(@id)\r\n\tend\r\nend\r\nlaunch(:t, id: 1)"
        let graph = loadRuby(text)
        #expect(graph.loadFindings.isEmpty, "\(findings(graph))")
        let flow = try onlyFlow(graph)
        #expect(accesses(flow.step("background")!.reads) == ["@id@3:11"])
        #expect(accesses(flow.initialData) == ["id: Integer = 1@6:12"])
    }

    @Test("a file without tasks gives no flows and no findings")
    func plainRuby() throws {
        let graph = loadRuby("""
            class AppDelegate
              def application(application, didFinishLaunchingWithOptions: launchOptions)
                @window = UIWindow.alloc.initWithFrame(UIScreen.mainScreen.bounds)
                [1, 2].map do |x| x * 2 end.each { |y| puts y }
                task_list.each { |task| task.run }
                true
              end
            end
            """)
        #expect(graph.flows.isEmpty)
        #expect(graph.loadFindings.isEmpty, "\(findings(graph))")
    }
}

// MARK: - Unreadable input

@Suite("Elevate loader: unreadable input")
struct ElevateErrorTests {
    @Test("strings never closed inside each other's interpolations are each read once, not once per enclosing string",
          .timeLimit(.minutes(10)))  // 2^40 passes would not end in it; generous, as the suite runs in parallel
    func unclosedInterpolatedStrings() {
        // Each line opens a string and an interpolation and never closes them. The lexer used to go
        // on after every unclosed string and again after every string around it: 2^40 passes here.
        let lines = (1...40).map { "      response = Elevate::HTTP.post(\"#{BASE_URL}/v\($0)/#{" }
        let graph = loadRuby("class Client\n  def login\n" + lines.joined(separator: "\n") + "\n  end\nend\n")
        let unclosed = findings(graph).filter { $0.hasSuffix("string is never closed") }
        // Every line's string is reported once, at its own line and column.
        #expect(unclosed == (1...40).map { "\($0 + 2):37 string is never closed" })
    }

    @Test("a background block whose end is missing: a finding at its line, and the next task is still read")
    func unclosedBlock() throws {
        let graph = loadRuby("""
            class Broken
              task :first do
                background do
                  API.get(@id)

                on_finish do |result, exception|
                  SVProgressHUD.dismiss
                end
              end

              task :second do
                background do
                  API.get(@id)
                end
              end
            end
            """)
        #expect(findings(graph) == ["3:5 the block of 'background' is never closed ('end' missing)"])
        #expect(graph.loadFindings.allSatisfy { $0.rule == "invalid-input" && $0.severity == .error && $0.location?.file == "x.rb" })
        #expect(graph.flows.map(\.id) == ["Broken.first", "Broken.second"])
        // The indentation put the end where it belongs: on_finish is still a callback, not background code.
        #expect(steps(graph.flows[0]) == ["background operation", "on_finish callback", "finished end", "failed fail"])
        #expect(calls(graph.flows[0].step("background")) == ["API|get@4"])
    }

    @Test("an if without end inside a background block, an end too many, an unclosed bracket")
    func otherStructure() throws {
        let graph = loadRuby("""
            task :a do
              background do
                if @ready
                  go
              end
            end
            end
            task :b do
              background do
                list = [1, 2
              end
            end
            """)
        #expect(findings(graph) == [
            "3:5 'if' is never closed ('end' missing)",
            "7:1 'end' without a matching block",
            "10:12 '[' is never closed (']' missing)",
        ])
        #expect(graph.flows.map(\.id) == ["a", "b"])
    }

    @Test("a block never closed at the end of the file")
    func unclosedAtEnd() throws {
        let graph = loadRuby("""
            task :a do
              background do
                API.get(@id)
            """)
        #expect(findings(graph) == [
            "2:3 the block of 'background' is never closed ('end' missing)",
            "1:1 the block of 'task' is never closed ('end' missing)",
        ])
        #expect(graph.flows.map(\.id) == ["a"])
    }

    @Test("a task without a background block: a finding at the task, no flow, the rest still read")
    func noBackground() throws {
        let graph = loadRuby("""
            class C
              task :empty do
                on_finish do |r, e|
                end
              end
              task :fine do
                background { 1 }
              end
              def old_style
                async TrackArtist.new(name) do
                  on_completed do |operation|
                  end
                end
              end
            end
            """)
        #expect(findings(graph) == [
            "2:3 task ':empty' has no 'background do … end' block: nothing would run in the background",
            "10:5 'async' with a use-case object is the Elevate 0.3 API, which FlowLens does not read: an 'async' task needs a 'task do … end' block",
        ])
        #expect(graph.flows.map(\.id) == ["C.fine"])
    }

    @Test("unterminated string, heredoc and =begin: a finding at their start, the rest still read")
    func unterminatedLiterals() throws {
        let string = loadRuby("""
            task :a do
              background do
                puts "oops
              end
            end
            """)
        #expect(findings(string) == ["3:10 string is never closed"])
        #expect(string.flows.map(\.id) == ["a"])

        let heredoc = loadRuby("""
            task :a do
              background { 1 }
            end
            x = <<~EOS
              never closed
            """)
        #expect(findings(heredoc) == ["4:5 heredoc 'EOS' is never closed (no line 'EOS')"])
        #expect(heredoc.flows.map(\.id) == ["a"])

        let comment = loadRuby("""
            task :a do
              background { 1 }
            end
            =begin
            never closed
            """)
        #expect(findings(comment) == ["4:1 '=begin' comment is never closed ('=end' missing)"])
    }

    @Test("every prefix of a real controller loads without crashing, reporting only invalid-input")
    func truncated() throws {
        let lines = artworkTask.split(separator: "\n", omittingEmptySubsequences: false)
        for n in 0...lines.count {
            let text = lines.prefix(n).joined(separator: "\n")
            let graph = loadRuby(text)
            #expect(graph.findingsAreInvalidInput, "prefix of \(n) lines: \(findings(graph))")
            for scalarCut in [1, 7, 13] where text.unicodeScalars.count > scalarCut {
                var cut = String.UnicodeScalarView()
                cut.append(contentsOf: text.unicodeScalars.dropLast(scalarCut))
                #expect(loadRuby(String(cut)).findingsAreInvalidInput)
            }
        }
    }
}

// MARK: - What the rules read, and the samples

@Suite("Elevate: what the rules read")
struct ElevateRuleFactsTests {
    @Test("missing-data-key: an ivar read that no async passes is a required read of a key absent from the initial data, at the ivar")
    func missingKeyFacts() throws {
        let flow = try onlyFlow(loadRuby("""
            class ProfileController < UIViewController
              def save(sender)
                @save_task = async name: field.text do
                  task do
                    @profile.name = @name
                  end
                end
              end
            end
            """))
        let task = try #require(flow.step("task"))
        let initial = Set(flow.initialData.map(\.key))
        let missing = task.reads.filter { !$0.optional && !initial.contains($0.key) }
        #expect(accesses(missing) == ["profile@5:9"])
        #expect(flow.entries == ["task"])
    }

    @Test("samples/elevate: six tasks, the two planted defects visible in the IR at their lines, no load findings")
    func samples() throws {
        let graph = SourceLoader().load(paths: ["samples/elevate"], workingDirectory: packageRoot)
        #expect(graph.loadFindings.isEmpty, "\(findings(graph))")
        #expect(graph.flows.map(\.id) == [
            "ArtistsSearchController.track_artist", "ArtworkController.download_artwork",
            "FeedController.refresh_task", "ProfileController.save_profile",
            "LoginController.login_task", "PhotosController.sync_photos",
        ])
        #expect(graph.flows.allSatisfy { $0.kind == .elevate && $0.limitations.isEmpty })
        // Clean tasks read every key they are given, and give every key they read.
        for flow in graph.flows where flow.id != "ProfileController.save_profile" {
            let given = Set(flow.initialData.map(\.key))
            let read = Set(flow.steps.flatMap(\.reads).map(\.key))
            #expect(given == read, "\(flow.id)")
        }
        let profile = try #require(graph.flow(named: "ProfileController.save_profile"))
        let profileRead = profile.step("background")?.reads.first { $0.key == "@profile" }
        #expect(profileRead?.location == FlowModel.SourceLocation(file: "samples/elevate/app/controllers/broken/profile_controller.rb", line: 21, column: 7))
        #expect(!profile.initialData.contains { $0.key == "profile" })
        let feed = try #require(graph.flow(named: "FeedController.refresh_task"))
        #expect(calls(feed.step("task")).contains("tableView|reloadData@19"))
        // The clean background blocks' UI work is in callbacks or on the main queue.
        let photos = try #require(graph.flow(named: "PhotosController.sync_photos"))
        #expect(!calls(photos.step("background")).contains { $0.hasPrefix("UIApplication") })
    }
}
