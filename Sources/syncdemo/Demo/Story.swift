import ListSync

/// The demo's steps, told on a ``Cluster`` of phone, laptop and tablet.
final class Story {
    /// The replicas.
    let cluster: any Cluster
    /// What went wrong (a step that did not settle, a check that failed); empty when all went well.
    private(set) var failures: [String] = []
    /// Steps told so far.
    private var step = 0
    /// The loads of the drops, landed once the other replicas have edited around their placeholders.
    private let loads = RunningLoads()

    /// A story told on `cluster`, whose replicas are phone, laptop and tablet in that order.
    init(cluster: any Cluster) { self.cluster = cluster }

    /// Tells every step; dropped contacts take `loadDelay` to load.
    func tell(loadDelay: Duration) throws {
        title("The phone adds six places; every replica receives them.")
        try type("phone", "add Paris Rome Tokyo Lima Oslo Cairo")
        settleAndShow()

        title("The laptop reorders: it drags Tokyo to the top.")
        try type("laptop", "move Tokyo top")
        settleAndShow()

        title("The tablet selects Paris and Oslo; the phone and the laptop see whose selection it is.")
        try type("tablet", "select Paris,Oslo")
        settleAndShow()
        note("A selection is presence: shown to the others at once, never stored or merged into the list.")
        for index in [0, 1] {
            let marked = Set(PresenceCommand.marks(cluster.presences(seenBy: index)).keys)
            let selected = cluster.read(index) { list in
                Set(list.filter { ["Paris", "Oslo"].contains($0.value.text) }.compactMap(\.id.rowID))
            }
            if marked != selected {
                failures.append("step \(step): \(cluster.names[index]) does not show the selection")
            }
        }
        try type("tablet", "select none")
        settle()

        title("Offline, the phone drags Rome to the top while the tablet drags it to the bottom.")
        cluster.partition([])
        try type("phone", "move Rome top")
        try type("tablet", "move Rome bottom")
        show()
        note(
            "Back online, Rome is in one place everywhere (concurrent moves: the later wins, ties go to the higher replica ID)."
        )
        cluster.heal()
        settleAndShow()
        check("Rome appears once everywhere") { list in list.count { $0.value.text == "Rome" } == 1 }

        title("Offline, the laptop deletes Lima while the phone moves it to the top.")
        cluster.partition([])
        try type("laptop", "delete Lima")
        try type("phone", "move Lima top")
        show()
        note("Back online, the delete wins: a deleted row never comes back.")
        cluster.heal()
        settleAndShow()
        check("Lima is gone everywhere") { list in !list.contains { $0.value.text == "Lima" } }

        title("The tablet selects Paris, Cairo and Rome and drags them to the top; offline, the phone inserts Quito.")
        cluster.partition([])
        try type("tablet", "move Paris,Cairo,Rome top")
        try type("phone", "insert 1 Quito")
        note("Back online, the three rows stay together and in order.")
        cluster.heal()
        settleAndShow()
        check("Paris, Cairo, Rome together and in order") { list in
            let texts = list.map(\.value.text)
            guard let first = texts.firstIndex(of: "Paris"), first + 2 < texts.count else { return false }
            return Array(texts[first...(first + 2)]) == ["Paris", "Cairo", "Rome"]
        }

        title("The phone drops three contacts from another app; they load slowly behind placeholders.")
        let delay = "\(Int(loadDelay / .milliseconds(1)))ms"
        try type("phone", "drop 2 \"Ada Lovelace\" \"Alan Turing\" --phone \"+44 20 7946 0000\" --delay \(delay)")
        try type("phone", "drop 0 \"Grace Hopper\" --delay \(delay) --fail")
        note(
            "Placeholders are local: the others see nothing yet. Meanwhile the laptop inserts a row at the top and "
                + "deletes Cairo, the row just above the placeholders; the tablet renames Rome.")
        try type("laptop", "insert 0 Lisbon")
        try type("laptop", "delete Cairo")
        try type("tablet", "edit Rome Roma")
        settleAndShow()

        if !loads.waitForAll(timeout: .seconds(30)) {
            failures.append("step \(step): the loads did not end within 30 s")
        }
        note("The loads end: each contact lands where its placeholder is now; the failed one leaves no trace.")
        for load in loads.takeEnded() { note(cluster.land(load)) }
        settleAndShow()
        check("no placeholder is left, and no contact that failed to load") { list in
            list.pendingCount == 0 && !list.contains { $0.value.text.hasPrefix("Grace Hopper") }
        }
    }

    /// Prints `replica> line` and runs it there as a ``ListCommand``, starting the loads of a drop.
    private func type(_ replica: String, _ line: String) throws {
        let prompt = "  \(replica)> "
        let wrapped = TextWrap.wrap(
            prompt + line, width: Console.outputWidth, indent: String(repeating: " ", count: prompt.count))
        Console.print(Style.cyan(prompt) + wrapped[0].dropFirst(prompt.count))
        for line in wrapped.dropFirst() { Console.print(line) }
        let words = try Words.split(line)
        guard let index = cluster.index(of: replica) else {
            preconditionFailure("the story's replicas are the cluster's")
        }
        if let command = try PresenceCommand.parse(words) {
            _ = try cluster.run(command, on: index)
            return
        }
        guard let command = try ListCommand.parse(words) else {
            preconditionFailure("the story's commands are list and presence commands")
        }
        for load in try cluster.edit(index, { list in try list.run(command).loads }) { loads.start(load, on: index) }
    }

    /// Prints the next step's title.
    private func title(_ text: String) {
        step += 1
        Console.print("")
        printWrapped("\(step). \(text)", indent: "   ", style: .bold)
    }

    /// Prints an explanation line.
    private func note(_ text: String) { printWrapped(text, indent: text.hasPrefix("  ") ? "    " : "", style: .dim) }

    /// Prints `text` wrapped at blanks to standard output's width, each line in `style`.
    private func printWrapped(_ text: String, indent: String, style: Style) {
        for line in TextWrap.wrap(text, width: Console.outputWidth, indent: indent) { Console.print(style(line)) }
    }

    /// Waits for the linked replicas to converge, recording a failure when they do not, then shows them.
    private func settleAndShow() {
        settle()
        show()
    }

    /// Waits for the linked replicas to converge, recording a failure when they do not.
    private func settle() {
        if !cluster.settle(timeout: .seconds(15)) {
            failures.append("step \(step): the replicas did not converge within 15 s")
        }
    }

    /// Prints every replica's list.
    private func show() {
        Console.print(ListDisplay.render(cluster.names.indices.map(cluster.column)))
    }

    /// Records a failure unless `condition` holds on every replica.
    private func check(_ description: String, _ condition: (ReplicatedList<Entry>) -> Bool) {
        for index in cluster.names.indices where !cluster.read(index, { condition($0) }) {
            failures.append("step \(step): expected \(description), but not on \(cluster.names[index])")
        }
    }
}
