import BelayDomain

/// The console's fixed words, each in Korean, Japanese and English.
enum ConsoleWord: Sendable {
    case console, signIn, signOut, email, sendCode, code, checkCode, codeSent, otherEmail, emailHelp, codeHelp
    case meetups, upcoming, past, noMeetups, title, when, going, waitlist, checkedIn, capacity, open, status
    case doorList, search, searchHint, checkIn, undo, add, addHint, handle, remove, noAttendees, exportCSV
    case statusGoing, statusWaitlisted, statusCheckedIn, statusCancelled, kiosk, newKiosk, kioskHelp, turnOffKiosks, kiosksTurnedOff
    case notFoundTitle, notFoundDetail, formExpired, errorTitle, errorDetail, signedInAs, live, reloadToUpdate
    case newMeetup, place, startsAt, endsAt, create, description, cancelMeetup, cancelled, timeZone
    case frontDoorTitle, frontDoorAPI, frontDoorHealth, frontDoorConsole, apiDocument, operations
    case moderation, queue, audit, members, noReports, reason, act, dismiss, hide, warn, suspend, lift, until, forGood
    case reports, subject, action, who, whenDone, suspended, role, gyms, upload, preview, write, rows, problems
    case shares, byDay, byTarget, day, target, count, rewards, noShares, skip, waitlistOffers, noShows
    case edit, save, server, value, check, labels, circuit, retire, wall, setFile, setFileHint, chooseFile, subjectMeetup, subjectMember, subjectSharePage, subjectMeetupPage
    case secondFactor, secondFactorAsked, secondFactorCode, secondFactorCodeHint, verify, setUp, enrolledSince, notEnrolled, mustEnrol
    case scanQR, setupKey, appCode, appCodeHint, confirmEnrolment, recoveryCodes, recoveryCodesHelp, recoveryCodesLeft, resetHelp
    case recoveryCodeSpent, toConsole, startOver, newRecoveryCodes, newRecoveryCodesHelp, newRecoveryCodesMade
    case resetSecondFactor, resetSecondFactorHelp, secondFactorWasReset, secondFactorNone, secondFactorOn
    case invites, newInvite, inviteHelp, uses, usesHint, days, daysHint, inviteCode, link, expires, used, revoke, revoked, expired, noInvites
    case inviteCreated, webhooks, newWebhook, url, urlHint, events, eventsHint, noWebhooks, secretOnce, deliveries, noDeliveries, redeliver
    case redelivered, removeWebhook, webhookRemoved, attempts, answer, event, enabled, disabled, deliveryPending, deliverySucceeded
    case deliveryFailed, devices, noDevices, platform, app, registered, updated, sendTest, testQueued, testNothing, token, webhookAdded
    case signingSecret, createdBy, nextAttempt, allEvents, cohosts, cohostsHelp, addCohost, noCohosts, cohostAdded, noSuchHandle, hostedBy
    case series, newSeries, noSeries, seriesHelp, gym, noGym, placeHint, weekday, startTime, endTime, weeks, weeksHint, timeInvalid
    case weeksInvalid, schedule, nextMeetup, left, cancelRest, cancelRestHeading, cancelRestHelp, cancelFrom, seriesCancelled, nothingLeft, notInSeries
    case scheduled, completed, noRewards, sticker, hold, stickerReady, rendering, renderFailed
    case noMatches, previousPage, nextPage, pages

    var texts: (ko: String, ja: String, en: String) {
        switch self {
        case .console: return ("콘솔", "コンソール", "Console")
        case .signIn: return ("로그인", "サインイン", "Sign in")
        case .signOut: return ("로그아웃", "サインアウト", "Sign out")
        case .email: return ("이메일", "メールアドレス", "Email")
        case .sendCode: return ("코드 받기", "コードを送る", "Send me a code")
        case .code: return ("여섯 자리 코드", "6桁のコード", "Six-digit code")
        case .checkCode: return ("로그인", "サインイン", "Sign in")
        case .codeSent: return ("메일로 여섯 자리 코드를 보냈어요. 10분 안에 입력하세요.", "6桁のコードをメールで送りました。10分以内に入力してください。", "We mailed you a six-digit code. Type it within ten minutes.")
        case .otherEmail: return ("다른 이메일로", "別のアドレスで", "Use another email")
        case .emailHelp: return ("앱에서 쓰는 이메일 주소를 입력하세요.", "アプリで使っているメールアドレスを入力してください。", "The address you use in the app.")
        case .codeHelp: return ("메일에 있는 숫자 여섯 개 (예: 842 337)", "メールに書かれた6桁の数字（例: 842 337）", "The six digits in the mail (e.g. 842 337)")
        case .meetups: return ("모임", "ミートアップ", "Meetups")
        case .upcoming: return ("다가오는 모임", "これからのミートアップ", "Upcoming")
        case .past: return ("지난 모임", "過去のミートアップ", "Past")
        case .noMeetups: return ("모임이 없어요.", "ミートアップはありません。", "No meetups here.")
        case .title: return ("제목", "タイトル", "Title")
        case .when: return ("일시", "日時", "When")
        case .going: return ("참가", "参加", "Going")
        case .waitlist: return ("대기", "キャンセル待ち", "Waitlist")
        case .checkedIn: return ("체크인", "チェックイン済み", "Checked in")
        case .capacity: return ("정원", "定員", "Capacity")
        case .open: return ("열기", "開く", "Open")
        case .status: return ("상태", "状態", "Status")
        case .doorList: return ("출석부", "受付リスト", "Door list")
        case .search: return ("이름 검색", "名前で検索", "Search by name")
        case .searchHint: return ("이름이나 핸들 일부", "名前かハンドルの一部", "Part of a name or handle")
        case .checkIn: return ("체크인", "チェックイン", "Check in")
        case .undo: return ("체크인 취소", "チェックイン取消", "Undo check-in")
        case .add: return ("추가", "追加", "Add")
        case .addHint: return ("회원 추가 (핸들)", "メンバーを追加（ハンドル）", "Add a member (handle)")
        case .handle: return ("핸들", "ハンドル", "Handle")
        case .remove: return ("빼기", "外す", "Remove")
        case .noAttendees: return ("아직 참가자가 없어요.", "まだ参加者はいません。", "Nobody has joined yet.")
        case .exportCSV: return ("CSV로 내보내기", "CSVで書き出す", "Export CSV")
        case .statusGoing: return ("참가", "参加", "going")
        case .statusWaitlisted: return ("대기", "キャンセル待ち", "waitlisted")
        case .statusCheckedIn: return ("체크인 완료", "チェックイン済み", "checked in")
        case .statusCancelled: return ("취소", "取消", "cancelled")
        case .kiosk: return ("키오스크", "キオスク", "Kiosk")
        case .newKiosk: return ("키오스크 링크 만들기", "キオスクのリンクを作る", "Make a kiosk link")
        case .kioskHelp: return ("이 링크를 프런트 태블릿에서 여세요. 지금 한 번만 보여요.", "このリンクを受付のタブレットで開いてください。表示は今回だけです。", "Open this link on the front desk tablet. It is shown this once.")
        case .turnOffKiosks: return ("키오스크 모두 끄기", "キオスクをすべて止める", "Turn off every kiosk")
        case .kiosksTurnedOff: return ("키오스크 링크를 모두 껐어요.", "キオスクのリンクをすべて止めました。", "Every kiosk link is off.")
        case .notFoundTitle: return ("페이지를 찾을 수 없어요", "ページが見つかりません", "Page not found")
        case .notFoundDetail: return ("주소가 틀렸거나 볼 수 없는 페이지예요.", "アドレスが違うか、見られないページです。", "The address is wrong, or this page is not yours to see.")
        case .formExpired: return ("이 양식이 만료되었거나 다른 사이트에서 왔어요. 아무것도 바뀌지 않았어요. 다시 보내 주세요.", "このフォームは期限切れか、別のサイトから送られました。何も変わっていません。もう一度送ってください。", "This form has expired or came from another site, so nothing was changed. Send it again.")
        case .errorTitle: return ("문제가 생겼어요", "問題が起きました", "Something went wrong")
        case .errorDetail: return ("잠시 뒤에 다시 해 보세요.", "しばらくしてからもう一度お試しください。", "Try again in a moment.")
        case .signedInAs: return ("로그인:", "サインイン中:", "Signed in as")
        case .live: return ("실시간", "ライブ", "Live")
        case .reloadToUpdate: return ("새로 고치면 최신 목록이 보여요.", "再読み込みで最新の一覧になります。", "Reload for the latest list.")
        case .newMeetup: return ("새 모임", "新しいミートアップ", "New meetup")
        case .place: return ("장소", "場所", "Place")
        case .startsAt: return ("시작", "開始", "Starts")
        case .endsAt: return ("끝", "終了", "Ends")
        case .create: return ("만들기", "作成", "Create")
        case .description: return ("설명", "説明", "Description")
        case .cancelMeetup: return ("모임 취소", "ミートアップを中止", "Cancel the meetup")
        case .cancelled: return ("취소됨", "中止", "cancelled")
        case .timeZone: return ("시간대", "タイムゾーン", "Time zone")
        case .frontDoorTitle: return ("클럽 서버", "クラブのサーバー", "The club's server")
        case .frontDoorAPI: return ("API 문서", "API ドキュメント", "API document")
        case .frontDoorHealth: return ("상태 확인", "ヘルスチェック", "Health checks")
        case .frontDoorConsole: return ("호스트·운영진 콘솔", "ホスト・運営コンソール", "Console for hosts and moderators")
        case .apiDocument: return ("API 문서", "API ドキュメント", "API document")
        case .operations: return ("엔드포인트", "エンドポイント", "Endpoints")
        case .moderation: return ("신고 처리", "通報対応", "Moderation")
        case .queue: return ("신고 대기열", "通報キュー", "Report queue")
        case .audit: return ("처리 기록", "対応記録", "Audit log")
        case .members: return ("회원", "メンバー", "Members")
        case .noReports: return ("열린 신고가 없어요.", "未対応の通報はありません。", "No open reports.")
        case .reason: return ("사유", "理由", "Reason")
        case .act: return ("처리", "対応", "Act")
        case .dismiss: return ("문제 없음", "問題なし", "Dismiss")
        case .hide: return ("숨기기", "非表示", "Hide")
        case .warn: return ("경고", "警告", "Warn")
        case .suspend: return ("정지", "利用停止", "Suspend")
        case .lift: return ("해제", "解除", "Lift")
        case .until: return ("정지 기한", "停止の期限", "Suspended until")
        case .forGood: return ("정지할 때만. 비워 두면 영구 정지예요.", "停止のときだけ。空欄なら無期限です。", "Only for a suspension; empty means for good.")
        case .reports: return ("신고", "通報", "Reports")
        case .subject: return ("대상", "対象", "Subject")
        case .action: return ("조치", "措置", "Action")
        case .who: return ("처리자", "担当", "By")
        case .whenDone: return ("시각", "日時", "At")
        case .suspended: return ("정지됨", "停止中", "suspended")
        case .role: return ("역할", "役割", "Role")
        case .gyms: return ("암장", "ジム", "Gyms")
        case .upload: return ("미리 보기", "プレビュー", "Preview")
        case .preview: return ("미리 보기", "プレビュー", "Preview")
        case .write: return ("이 세트 저장", "このセットを保存", "Save this set")
        case .rows: return ("행", "行", "Rows")
        case .problems: return ("문제", "課題", "Problems")
        case .shares: return ("공유 통계", "シェア統計", "Share statistics")
        case .byDay: return ("날짜별 공유", "日別のシェア", "Shares by day")
        case .byTarget: return ("대상별 공유", "シェア先別", "Shares by target")
        case .day: return ("날짜", "日付", "Day")
        case .target: return ("공유 대상", "シェア先", "Target")
        case .count: return ("횟수", "回数", "Shares")
        case .rewards: return ("보상", "リワード", "Rewards")
        case .noShares: return ("아직 공유가 없어요.", "まだシェアはありません。", "No shares yet.")
        case .skip: return ("본문으로 건너뛰기", "本文へ移動", "Skip to the content")
        case .waitlistOffers: return ("대기 중 제안", "オファー中", "Offers")
        case .noShows: return ("노쇼", "無断欠席", "No-shows")
        case .edit: return ("수정", "編集", "Edit")
        case .save: return ("저장", "保存", "Save")
        case .server: return ("서버 상태", "サーバーの状態", "Server")
        case .value: return ("값", "値", "Value")
        case .check: return ("검사", "チェック", "Check")
        case .labels: return ("구분", "ラベル", "Labels")
        case .circuit: return ("난이도 색", "グレードの色", "Colour circuit")
        case .retire: return ("벽 철거", "壁を撤去", "Retire a wall")
        case .wall: return ("벽", "壁", "Wall")
        case .setFile: return ("새 세트 (CSV)", "新しいセット (CSV)", "A new set (CSV)")
        case .setFileHint: return ("한 줄에 문제 하나: wall, colour, grade, set_on[, name, setter]. 미리 보기 전에는 아무것도 저장되지 않아요.", "1行に課題1つ: wall, colour, grade, set_on[, name, setter]。プレビューの時点では何も保存されません。", "One problem a row: wall, colour, grade, set_on[, name, setter]. Nothing is saved by a preview.")
        case .chooseFile: return ("CSV 파일", "CSVファイル", "CSV file")
        case .subjectMeetup: return ("모임", "ミートアップ", "Meetup")
        case .subjectMember: return ("회원", "メンバー", "Member")
        case .subjectSharePage: return ("공유 페이지", "シェアページ", "Share page")
        case .subjectMeetupPage: return ("모임 페이지", "ミートアップのページ", "Meetup page")
        case .secondFactor: return ("2단계 인증", "2段階認証", "Second factor")
        case .secondFactorAsked: return ("이 계정은 2단계 인증을 써요. 인증 앱을 열어 지금 코드를 입력하세요.", "このアカウントは2段階認証を使っています。認証アプリを開いて今のコードを入力してください。", "This account has a second factor. Open your authenticator app and type its current code.")
        case .secondFactorCode: return ("인증 앱 코드 또는 복구 코드", "認証アプリのコードまたはリカバリーコード", "Authenticator code or recovery code")
        case .secondFactorCodeHint: return ("앱에 보이는 여섯 자리. 휴대폰이 없다면 복구 코드 (예: k7m2q-x9tfa)", "アプリに表示された6桁。スマホがなければリカバリーコード（例: k7m2q-x9tfa）", "The six digits the app shows; without your phone, a recovery code (e.g. k7m2q-x9tfa)")
        case .verify: return ("확인", "確認", "Verify")
        case .setUp: return ("인증 앱 등록하기", "認証アプリを登録する", "Set up an authenticator app")
        case .enrolledSince: return ("인증 앱이 등록되어 있어요. 콘솔과 앱에 로그인할 때마다 코드를 물어요. 등록:", "認証アプリが登録されています。コンソールとアプリへのサインインのたびにコードを聞きます。登録日:", "An authenticator app is set up: every sign-in, in the console and in the app, asks for its code. Since")
        case .notEnrolled: return ("등록된 인증 앱이 없어요. 로그인할 때 메일 코드만 물어요.", "認証アプリは登録されていません。サインインではメールのコードだけを聞きます。", "No authenticator app is set up: signing in asks for the mailed code only.")
        case .mustEnrol: return ("관리자는 콘솔을 쓰기 전에 인증 앱을 등록해야 해요.", "管理者はコンソールを使う前に認証アプリを登録してください。", "Admins set up an authenticator app before using the console.")
        case .scanQR: return ("인증 앱 (Google Authenticator, 1Password 등)으로 이 QR 코드를 찍거나 설정 키를 입력하세요.", "認証アプリ（Google Authenticator、1Password など）でこのQRコードを読むか、セットアップキーを入力してください。", "Scan this QR code with an authenticator app (Google Authenticator, 1Password, …) or type the setup key.")
        case .setupKey: return ("설정 키", "セットアップキー", "Setup key")
        case .appCode: return ("앱에 보이는 여섯 자리 코드", "アプリに表示された6桁のコード", "The six digits the app shows")
        case .appCodeHint: return ("코드가 맞으면 등록이 끝나요.", "コードが合えば登録完了です。", "A right code finishes the setup.")
        case .confirmEnrolment: return ("등록 완료", "登録する", "Finish setup")
        case .recoveryCodes: return ("복구 코드", "リカバリーコード", "Recovery codes")
        case .recoveryCodesHelp: return ("지금 한 번만 보여요. 안전한 곳에 적어 두세요. 휴대폰이 없을 때 코드 하나로 한 번 로그인할 수 있어요.", "表示は今回だけです。安全な場所に控えてください。スマホがないとき、1つのコードで1回サインインできます。", "Shown this once: write them down somewhere safe. Each signs you in once without your phone.")
        case .newRecoveryCodes: return ("새 복구 코드 만들기", "新しいリカバリーコードを作る", "New recovery codes")
        case .newRecoveryCodesHelp: return ("인증 앱의 지금 코드를 입력하면 새 복구 코드 열 개를 보여 줘요. 예전 코드는 모두 더 이상 쓸 수 없어요.", "認証アプリの今のコードを入力すると、新しいリカバリーコードを10個表示します。以前のコードはすべて使えなくなります。", "Type your authenticator's current code to get ten new recovery codes; the old ones all stop working.")
        case .newRecoveryCodesMade: return ("새 복구 코드를 만들었어요. 예전 코드는 더 이상 쓸 수 없어요.", "新しいリカバリーコードを作りました。以前のコードはもう使えません。", "New recovery codes made; the old ones no longer work.")
        case .resetSecondFactor: return ("2단계 인증 초기화", "2段階認証をリセット", "Reset second factor")
        case .resetSecondFactorHelp: return ("휴대폰을 잃었거나 바꾼 회원의 인증 앱과 복구 코드를 지워요. 다음 로그인은 이메일 코드만으로 되고, 감사 기록에 남아요. 본인이 요청했는지 먼저 확인하세요.", "スマホをなくしたり替えたりしたメンバーの認証アプリとリカバリーコードを消します。次のサインインはメールのコードだけでできます。監査ログに残ります。本人からの依頼か先に確かめてください。", "Removes the authenticator and recovery codes of a member who lost or changed their phone: their next sign-in needs the emailed code alone. Written to the audit log. Check first that the request is really theirs.")
        case .secondFactorWasReset: return ("2단계 인증을 초기화했어요.", "2段階認証をリセットしました。", "Second factor reset.")
        case .secondFactorNone: return ("2단계 인증 없음", "2段階認証なし", "No second factor")
        case .secondFactorOn: return ("2단계 인증 사용 중", "2段階認証あり", "Second factor on")
        case .recoveryCodesLeft: return ("남은 복구 코드", "残りのリカバリーコード", "Recovery codes left")
        case .resetHelp: return ("휴대폰을 바꾸거나 잃었다면 관리자에게 초기화를 부탁하세요 (belay users reset-second-factor).", "スマホを替えたりなくしたりしたら、管理者にリセットを頼んでください（belay users reset-second-factor）。", "New or lost phone? Ask an admin to reset it (belay users reset-second-factor).")
        case .recoveryCodeSpent: return ("복구 코드 하나를 썼어요. 남은 복구 코드:", "リカバリーコードを1つ使いました。残り:", "You used a recovery code. Recovery codes left:")
        case .toConsole: return ("콘솔로 가기", "コンソールへ", "Go to the console")
        case .startOver: return ("처음부터 다시 로그인", "最初からサインインし直す", "Sign in again from the start")
        case .invites: return ("초대", "招待", "Invites")
        case .newInvite: return ("새 초대 코드", "新しい招待コード", "New invite code")
        case .inviteHelp: return ("가입이 초대제일 때 (accounts.sign_up = invite) 처음 로그인하는 사람은 이 코드가 필요해요.", "招待制（accounts.sign_up = invite）のとき、初めてサインインする人にはこのコードが必要です。", "While sign-up is by invite (accounts.sign_up = invite), a first sign-in needs one of these codes.")
        case .uses: return ("사용 횟수", "使える回数", "Uses")
        case .usesHint: return ("이 코드로 가입할 수 있는 사람 수 (1–10000)", "このコードで登録できる人数（1〜10000）", "How many people it admits (1 to 10000)")
        case .days: return ("유효 기간 (일)", "有効期間（日）", "Valid for (days)")
        case .daysHint: return ("1–365일", "1〜365日", "1 to 365 days")
        case .inviteCode: return ("코드", "コード", "Code")
        case .link: return ("링크", "リンク", "Link")
        case .expires: return ("만료", "期限", "Expires")
        case .used: return ("사용", "使用", "Used")
        case .revoke: return ("취소", "取り消す", "Revoke")
        case .revoked: return ("취소됨", "取消済み", "revoked")
        case .expired: return ("만료됨", "期限切れ", "expired")
        case .noInvites: return ("초대 코드가 없어요.", "招待コードはありません。", "No invite codes yet.")
        case .inviteCreated: return ("초대 코드를 만들었어요:", "招待コードを作りました:", "New invite code:")
        case .webhooks: return ("웹훅", "Webhook", "Webhooks")
        case .newWebhook: return ("새 웹훅", "新しいWebhook", "New webhook")
        case .url: return ("받는 주소 (URL)", "送信先のURL", "URL")
        case .urlHint: return ("https://로 시작하는 받는 쪽 주소", "受け取る側の https:// アドレス", "The receiver's https:// address")
        case .events: return ("이벤트", "イベント", "Events")
        case .eventsHint: return ("쉼표로 구분해요. 비워 두면 모든 이벤트를 보내요.", "カンマ区切り。空欄ならすべてのイベント。", "Comma-separated; empty for every event.")
        case .noWebhooks: return ("등록된 웹훅이 없어요.", "登録されたWebhookはありません。", "No webhooks yet.")
        case .secretOnce: return ("지금 한 번만 보여요. 받는 쪽에 설정해 요청의 서명을 확인하게 하세요.", "表示は今回だけです。受け取る側に設定して、リクエストの署名を確かめてもらってください。", "Shown this once: give it to the receiver, which checks each request's signature with it.")
        case .deliveries: return ("최근 전송", "最近の配信", "Recent deliveries")
        case .noDeliveries: return ("아직 전송이 없어요.", "まだ配信はありません。", "Nothing sent yet.")
        case .redeliver: return ("다시 보내기", "再送する", "Send again")
        case .redelivered: return ("다시 보내도록 대기열에 넣었어요.", "再送を待ち行列に入れました。", "Queued to be sent again.")
        case .removeWebhook: return ("이 웹훅 삭제", "このWebhookを削除", "Remove this webhook")
        case .webhookRemoved: return ("웹훅을 삭제했어요. 기록은 남아요.", "Webhookを削除しました。記録は残ります。", "The webhook is removed; its log is kept.")
        case .attempts: return ("시도", "試行", "Attempts")
        case .answer: return ("응답", "応答", "Answer")
        case .event: return ("이벤트", "イベント", "Event")
        case .enabled: return ("사용 중", "有効", "enabled")
        case .disabled: return ("중지됨", "停止中", "disabled")
        case .deliveryPending: return ("대기", "待機中", "pending")
        case .deliverySucceeded: return ("성공", "成功", "delivered")
        case .deliveryFailed: return ("실패", "失敗", "failed")
        case .devices: return ("푸시 기기", "プッシュ通知の端末", "Push devices")
        case .noDevices: return ("등록된 기기가 없어요.", "登録された端末はありません。", "No devices registered.")
        case .platform: return ("플랫폼", "プラットフォーム", "Platform")
        case .app: return ("앱", "アプリ", "App")
        case .registered: return ("등록", "登録", "Registered")
        case .updated: return ("갱신", "更新", "Updated")
        case .sendTest: return ("테스트 알림 보내기", "テスト通知を送る", "Send a test notice")
        case .testQueued: return ("테스트 알림을 보냈어요. 기기 수:", "テスト通知を送りました。端末数:", "Test notice queued. Devices:")
        case .testNothing: return ("보내지 못했어요: 이 서버에는 이 기기들의 푸시 서비스(APNs·FCM) 설정이 없어요.", "送れませんでした: このサーバーにはこれらの端末のプッシュサービス（APNs・FCM）の設定がありません。", "Nothing was sent: this server has no push service (APNs, FCM) set up for these devices.")
        case .token: return ("토큰", "トークン", "Token")
        case .cohosts: return ("공동 호스트", "共同ホスト", "Co-hosts")
        case .cohostsHelp: return ("공동 호스트는 이 모임을 호스트처럼 관리해요 (수정, 출석부, 체크인, 키오스크). 호스트나 관리자인 회원만 될 수 있고, 정하는 건 호스트와 관리자예요.", "共同ホストはこのミートアップをホストと同じように管理します（編集、受付リスト、チェックイン、キオスク）。ホストか管理者のメンバーだけがなれ、決めるのはホストと管理者です。", "Co-hosts manage this meetup as its host does (changes, the door list, check-ins, the kiosk). Only hosts and admins can be one, and only the host and admins name them.")
        case .addCohost: return ("공동 호스트 추가 (핸들)", "共同ホストを追加（ハンドル）", "Add a co-host (handle)")
        case .noCohosts: return ("공동 호스트가 없어요.", "共同ホストはいません。", "No co-hosts.")
        case .cohostAdded: return ("공동 호스트를 추가했어요.", "共同ホストを追加しました。", "Co-host added.")
        case .noSuchHandle: return ("이 핸들로 추가할 수 있는 회원이 없어요.", "このハンドルで追加できるメンバーはいません。", "No member you can add has this handle.")
        case .hostedBy: return ("호스트", "ホスト", "Host")
        case .signingSecret: return ("서명 비밀 키", "署名シークレット", "Signing secret")
        case .createdBy: return ("만든 사람", "作成者", "Made by")
        case .nextAttempt: return ("다음 시도", "次の試行", "Next attempt")
        case .allEvents: return ("고르지 않으면 모든 이벤트를 보내요.", "選ばなければすべてのイベントを送ります。", "Choose none for every event.")
        case .webhookAdded: return ("웹훅을 등록했어요.", "Webhookを登録しました。", "The webhook is registered.")
        case .series: return ("반복 모임", "定期ミートアップ", "Series")
        case .newSeries: return ("새 반복 모임", "新しい定期ミートアップ", "New series")
        case .noSeries: return ("반복 모임이 없어요.", "定期ミートアップはありません。", "No series yet.")
        case .seriesHelp: return ("고른 요일의 같은 시각에 매주 모임을 만들어요. 가장 가까운 그 요일부터 시작하고, 모임마다 출석부와 체크인 코드가 따로 있어요.", "選んだ曜日の同じ時刻に毎週ミートアップを作ります。いちばん近いその曜日から始まり、回ごとに受付リストとチェックインコードがあります。", "Makes a meetup every week on the chosen weekday at the same time, from the next such day; each has its own door list and check-in code.")
        case .gym: return ("암장", "ジム", "Gym")
        case .noGym: return ("암장 없음 (아래에 장소 입력)", "ジムなし（下に場所を入力）", "No gym (type the place below)")
        case .placeHint: return ("암장을 고르면 비워 둬도 돼요.", "ジムを選んだら空欄でかまいません。", "May stay empty when a gym is chosen.")
        case .weekday: return ("요일", "曜日", "Weekday")
        case .startTime: return ("시작 시각", "開始時刻", "Starts at")
        case .endTime: return ("끝 시각", "終了時刻", "Ends at")
        case .weeks: return ("몇 주 동안", "何週間", "For how many weeks")
        case .weeksHint: return ("매주 한 번, 2–104주", "毎週1回、2〜104週", "Once a week, 2 to 104 weeks")
        case .timeInvalid: return ("시각은 19:00처럼 입력하세요.", "時刻は 19:00 のように入力してください。", "A time of day such as 19:00.")
        case .weeksInvalid: return ("2에서 104 사이의 주 수를 입력하세요.", "2〜104の週数を入力してください。", "A number of weeks from 2 to 104.")
        case .schedule: return ("일정", "日程", "Schedule")
        case .nextMeetup: return ("다음 모임", "次回", "Next")
        case .left: return ("예정", "予定", "Scheduled")
        case .cancelRest: return ("이 모임부터 모두 취소", "この回から後をすべて中止", "Cancel from this meetup on")
        case .cancelRestHeading: return ("남은 모임 취소", "残りの回を中止", "Cancel the rest of the series")
        case .cancelRestHelp: return ("고른 모임과 그 뒤의 예정된 모임이 모두 취소되고, 참가자와 대기자에게 알림이 가요. 이미 한 체크인과 보상은 그대로예요.", "選んだ回とその後の予定の回がすべて中止になり、参加者とキャンセル待ちの人に知らせが届きます。済んだチェックインとリワードはそのままです。", "The chosen meetup and every later scheduled one are cancelled, and those going or waiting are told. Check-ins made and their rewards stay.")
        case .cancelFrom: return ("여기부터 취소", "ここから中止", "Cancel from")
        case .seriesCancelled: return ("취소한 모임 수:", "中止した回数:", "Meetups cancelled:")
        case .nothingLeft: return ("취소할 수 있는 예정된 모임이 없어요.", "中止できる予定の回はありません。", "No scheduled meetup is left to cancel.")
        case .notInSeries: return ("이 반복 모임의 예정된 모임을 고르세요.", "この定期ミートアップの予定の回を選んでください。", "Choose a scheduled meetup of this series.")
        case .scheduled: return ("예정", "予定", "scheduled")
        case .completed: return ("끝남", "終了", "completed")
        case .noRewards: return ("아직 받은 보상이 없어요. 체크인하면 홀드를 받아요.", "まだリワードはありません。チェックインするとホールドがもらえます。", "No rewards yet: each check-in earns a hold.")
        case .sticker: return ("스티커", "ステッカー", "Sticker")
        case .hold: return ("홀드", "ホールド", "Hold")
        case .stickerReady: return ("준비됨", "準備完了", "ready")
        case .rendering: return ("그리는 중", "描画中", "rendering")
        case .renderFailed: return ("그리기 실패", "描画に失敗", "render failed")
        case .noMatches: return ("찾는 이름이 없어요.", "該当する人はいません。", "Nobody matches.")
        case .previousPage: return ("이전", "前へ", "Previous")
        case .nextPage: return ("다음", "次へ", "Next")
        case .pages: return ("페이지", "ページ", "Pages")
        }
    }
}

extension SharePageLanguage {
    /// The console's word `word` in this language.
    func word(_ word: ConsoleWord) -> String {
        let texts = word.texts
        switch self {
        case .korean: return texts.ko
        case .japanese: return texts.ja
        case .english: return texts.en
        }
    }

    /// `300명 중 1–50`: which of a list's rows a page shows.
    func shown(from first: Int, to last: Int, of total: Int) -> String {
        switch self {
        case .korean: return "\(total)명 중 \(first)–\(last)"
        case .japanese: return "\(total)人中 \(first)–\(last)"
        case .english: return "\(first)–\(last) of \(total)"
        }
    }

    /// `매주 화요일 오후 7:00`: a weekly series' day and time, both already in this language.
    func weekly(weekday: String, time: String) -> String {
        switch self {
        case .korean: return "매주 \(weekday) \(time)"
        case .japanese: return "毎週\(weekday) \(time)"
        case .english: return "Every \(weekday) at \(time)"
        }
    }

    /// A milestone reward: the member's `number`th check-in.
    func milestone(_ number: Int) -> String {
        switch self {
        case .korean: return "\(number)번째 체크인"
        case .japanese: return "\(number)回目のチェックイン"
        case .english: return "check-in no. \(number)"
        }
    }

    /// The language a member chose, else the club's.
    static func console(member: MemberLocale?, club: SharePageLanguage) -> SharePageLanguage {
        member.map { SharePageLanguage(locale: $0.rawValue) } ?? club
    }

    /// A refusal in this language, for the reasons a console form meets most; nil in English
    /// and for the rest (the domain's own message, which names the field and the value, is shown).
    func refusal(_ reason: RefusalReason) -> String? {
        let texts: (ko: String, ja: String)
        switch reason {
        case .invalidSecondFactorCode: texts = ("코드가 맞지 않거나 이미 쓴 코드예요. 앱의 지금 코드나 쓰지 않은 복구 코드를 입력하세요.", "コードが違うか使用済みです。アプリの今のコードか未使用のリカバリーコードを入力してください。")
        case .invalidEmailCode: texts = ("코드가 맞지 않거나 만료되었어요. 메일의 여섯 자리를 다시 확인하거나 새 코드를 받으세요.", "コードが違うか期限切れです。メールの6桁を確かめるか、新しいコードを受け取ってください。")
        case .tokenAlreadyUsed: texts = ("이미 쓴 코드예요. 새 코드를 받으세요.", "使用済みのコードです。新しいコードを受け取ってください。")
        case .accountSuspended: texts = ("정지된 계정이에요. 클럽에 문의하세요.", "停止中のアカウントです。クラブに問い合わせてください。")
        case .signUpClosed, .inviteRequired, .invalidInvite: texts = ("이 이메일로는 로그인할 수 없어요. 클럽 운영진에게 계정을 요청하세요.", "このアドレスではサインインできません。運営にアカウントを頼んでください。")
        case .meetupCancelled: texts = ("취소된 모임이에요.", "中止されたミートアップです。")
        case .meetupCompleted, .meetupOver: texts = ("이미 끝난 모임이에요.", "終了したミートアップです。")
        case .notAttending: texts = ("이 모임의 참가자가 아니에요.", "このミートアップの参加者ではありません。")
        case .waitlisted: texts = ("대기 중인 회원은 체크인할 수 없어요. 자리가 나면 참가로 바뀌어요.", "キャンセル待ちのメンバーはチェックインできません。")
        case .alreadyCheckedIn: texts = ("이미 체크인했어요. 먼저 체크인을 취소하세요.", "チェックイン済みです。先にチェックインを取り消してください。")
        case .notCheckedIn: texts = ("체크인하지 않은 회원이에요.", "チェックインしていないメンバーです。")
        case .windowNotOpen: texts = ("아직 체크인 시간이 아니에요.", "まだチェックインの時間ではありません。")
        case .windowClosed: texts = ("체크인 시간이 끝났어요.", "チェックインの時間は終わりました。")
        case .tooManyAttempts: texts = ("시도가 너무 많아요. 잠시 뒤에 다시 하세요.", "試行が多すぎます。しばらくしてからもう一度。")
        case .contentRefused: texts = ("클럽에서 허용하지 않는 표현이 있어요. 고쳐서 다시 보내 주세요.", "クラブで許可されていない表現があります。直して送ってください。")
        default: return nil
        }
        switch self {
        case .korean: return texts.ko
        case .japanese: return texts.ja
        case .english: return nil
        }
    }

    /// What kind of thing was reported.
    func subject(_ type: ReportSubjectType) -> String {
        switch type {
        case .meetup: return word(.subjectMeetup)
        case .member: return word(.subjectMember)
        case .sharePage: return word(.subjectSharePage)
        case .meetupPage: return word(.subjectMeetupPage)
        }
    }

    /// A member's role in words.
    func role(_ role: Role) -> String {
        let texts: (ko: String, ja: String, en: String)
        switch role {
        case .member: texts = ("회원", "メンバー", "member")
        case .host: texts = ("호스트", "ホスト", "host")
        case .admin: texts = ("관리자", "管理者", "admin")
        }
        switch self {
        case .korean: return texts.ko
        case .japanese: return texts.ja
        case .english: return texts.en
        }
    }

    /// The attendance status as the door list shows it.
    func status(_ status: AttendanceStatus) -> String {
        switch status {
        case .going: return word(.statusGoing)
        case .waitlisted: return word(.statusWaitlisted)
        case .checkedIn: return word(.statusCheckedIn)
        case .cancelled: return word(.statusCancelled)
        }
    }
}
