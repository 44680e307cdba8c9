// Other languages' most common words for what a tool does and what it does it to, put in English:
// tools describe themselves in English, and a person (or a model passing a person's words on) may
// ask in German, Chinese, French, Spanish or Japanese. A small table of action and object words,
// not a translator: a word it lacks stays as it is, and the search's description asks for English.

// Each line: the English word(s), then after `:` the words that mean them, in any of the languages.
// German, French and Spanish words are looked up without their common endings (foreignStem), so a
// line names each word once ("erstellen" also finds "erstelle" and "erstellt").
const TABLE = [
  'create: erstellen anlegen erzeugen créer crear 创建 新建 建立 作成',
  'new: neu nouveau nouvelle nuevo nueva 新 新的 新しい',
  'delete: löschen entfernen supprimer effacer borrar eliminar 删除 删掉 移除 削除',
  'update: aktualisieren ändern bearbeiten actualizar cambiar editar 更新 修改 编辑 変更 編集',
  'list: auflisten liste lister listar lista 列出 列表 一覧',
  'show: zeigen anzeigen afficher montrer mostrar ver 显示 查看 表示',
  'search: suchen durchsuchen chercher rechercher buscar 搜索 查找 搜寻 検索 探す',
  'find: finden trouver encontrar 找 找到',
  'read: lesen lire leer 读取 读 阅读 読む 読み込む',
  'write: schreiben écrire escribir 写入 写 書く 書き込む',
  'send: senden schicken verschicken envoyer enviar 发送 发 送信 送る',
  'open: öffnen ouvrir abrir 打开 開く',
  'close: schließen fermer cerrar 关闭 閉じる',
  'get: holen abrufen obtenir récupérer obtener 获取 得到 取得',
  'add: hinzufügen ajouter añadir agregar 添加 加 增加 追加',
  'move: verschieben déplacer mover 移动 移動',
  'rename: umbenennen renommer renombrar 重命名 名前変更',
  'copy: kopieren copier copiar 复制 コピー',
  'run: ausführen exécuter lancer ejecutar 运行 执行 実行',
  'download: herunterladen télécharger descargar 下载 ダウンロード',
  'upload: hochladen téléverser subir 上传 アップロード',
  'merge: zusammenführen fusionner fusionar 合并 マージ',
  'comment: kommentar kommentieren commentaire commenter comentario comentar 评论 コメント',
  'assign: zuweisen assigner asignar 分配 指派 割り当て',
  'click: klicken cliquer 点击 单击 クリック',
  'navigate: navigieren naviguer navegar 访问 跳转 移動する',
  'screenshot: bildschirmfoto 截图 截屏 スクリーンショット',
  'file: datei fichier archivo 文件 档案 ファイル',
  'directory: verzeichnis ordner dossier répertoire carpeta directorio 目录 文件夹 ディレクトリ フォルダ',
  'message: nachricht mensaje 消息 信息 メッセージ',
  'email: mail courriel correo 邮件 电子邮件 メール',
  'issue: incidencia 问题 议题 工单 課題',
  'repository: dépôt repositorio 仓库 代码库 リポジトリ',
  'branch: zweig branche rama 分支 ブランチ',
  'commit: 提交 コミット',
  'user: benutzer nutzer utilisateur usuario 用户 ユーザー',
  'page: seite 页面 网页 ページ',
  'table: tabelle tableau tabla 表 表格 テーブル',
  'database: datenbank 数据库 データベース',
  'project: projekt projet proyecto 项目 プロジェクト',
  'task: aufgabe tâche tarea 任务 タスク',
  'calendar: kalender calendrier calendario 日历 カレンダー',
  'event: termin ereignis événement evento 事件 活动 イベント',
  'meeting: besprechung réunion reunión 会议 会議',
  'channel: kanal 频道 チャンネル',
  'image: bild imagen 图片 图像 画像',
  'time: zeit uhrzeit heure hora 时间 時間 時刻',
  'timezone: zeitzone fuseau 时区 タイムゾーン',
  'document: dokument documento 文档 文書 ドキュメント',
  'content: inhalt contenu contenido 内容 内容物',
  'status: zustand état estado 状态 ステータス',
  'log: protokoll registro 日志 ログ',
  'error: fehler fehlermeldung erreur 错误 エラー',
  'weather: wetter météo clima tiempo 天气 天気',
  'payment: zahlung paiement pago 付款 支付 支払い',
  'customer: kunde cliente 客户 顾客 顧客',
  'invoice: rechnung facture factura 发票 請求書',
  'price: preis prix precio 价格 価格',
  'query: abfrage requête consulta 查询 クエリ',
  'link: verknüpfung lien enlace 链接 リンク',
  'tag: schlagwort étiquette etiqueta 标签 タグ',
  'note: notiz 笔记 备注 メモ',
  'folder: 文件夹',
  'browser: navigateur navegador 浏览器 ブラウザ',
  'url: adresse dirección 网址 地址',
  'release: veröffentlichen veröffentlichung publier publicar 发布 リリース',
  'pull request: 拉取请求 合并请求 プルリクエスト',
]
  // Words that carry no meaning of their own (articles, pronouns, particles): searched for, they
  // would only add noise.
  .concat([
    ': der die das den dem des ein eine einen einem einer und oder mit für von zu im auf ist ' +
      'sind mein meine meinen alle bitte ich wir uns le la les un une du et ou pour avec dans est ' +
      'mon ma mes sur el los las una y para con en mi mis por es 的 了 一个 我 我的 我们 把 在 是 ' +
      '和 请 吗 个 所有 中 上 里 を に は が の で と から ください して する',
  ]);

// German, French and Spanish inflect a word by its ending: the table and a query's word are both
// looked up without the first of these endings that leaves at least four letters.
const ENDINGS = ['ungen', 'ung', 'en', 'er', 'es', 'e', 'n', 's', 't', 'r'];

function foreignStem(word: string): string {
  const ending = ENDINGS.find((each) => word.endsWith(each) && word.length - each.length >= 4);
  return ending === undefined ? word : word.slice(0, -ending.length);
}

const ENGLISH = new Map<string, string[]>();
for (const line of TABLE) {
  const [english = '', foreign = ''] = line.split(':');
  const meaning = english.split(' ').filter((word) => word !== '');
  for (const word of foreign.split(' ').filter((each) => each !== '')) {
    ENGLISH.set(word, meaning);
    ENGLISH.set(foreignStem(word), meaning);
  }
}

/**
 * The English words `word` (lower case) stands for when it is one of the table's, `[]` for a word
 * that means nothing on its own; undefined for any other word.
 */
export function englishFor(word: string): readonly string[] | undefined {
  return ENGLISH.get(word) ?? ENGLISH.get(foreignStem(word));
}
