// Other languages' most common words for what a tool does and what it does it to, put in English:
// tools describe themselves in English, and a person (or a model passing a person's words on) may
// ask in German, Chinese, French, Spanish or Japanese. A small table of action and object words,
// not a translator: a word it lacks stays as it is, and the search's description asks for English.

// Each line: the English word(s), then after `:` the words that mean them, in any of the languages.
// German, French and Spanish words are looked up without their common endings and accents
// (foreignStem), so a line names each word once ("erstellen" also finds "erstelle" and "erstellt").
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
  'tag label: schlagwort etikett étiquette etiqueta 标签 タグ ラベル',
  'note: notiz 笔记 备注 メモ',
  'folder: 文件夹',
  'browser: navigateur navegador 浏览器 ブラウザ',
  'url: 网址 链接地址',
  'release: veröffentlichen veröffentlichung publier publicar 发布 リリース',
  'pull request: 拉取请求 合并请求 プルリクエスト',
  'translate: übersetzen traduire traduis traducir traduce 翻译 翻訳',
  'language: sprache langue idioma 语言 言語',
  'english: englisch anglais inglés 英语 英文 英語',
  'german: deutsch allemand alemán 德语 德文 ドイツ語',
  'chinese: chinesisch chinois chino 中文 汉语 中国語',
  'news: actualités noticias 新闻 ニュース',
  'route directions: route itinéraire ruta 路线 导航 怎么走 ルート 経路',
  'driving: autofahrt fahren conduire conducir 开车 驾车 車',
  'car: voiture coche 汽车 自动车',
  'nearby: nähe umgebung proximité cerca 附近 周边 近く',
  'address: anschrift dirección 地址 住所',
  'coordinates: koordinaten coordonnées coordenadas 坐标 座標',
  'place: ort lieu lugar 地点 地方 場所',
  'board: tafel tablero 看板 面板 ボード',
  'column: spalte colonne columna 列 字段 カラム',
  'row record: zeile datensatz ligne 行 记录 レコード',
  'item: eintrag élément elemento 条目 项目 アイテム',
  'workspace: arbeitsbereich espace 工作区 ワークスペース',
  'index: 索引 インデックス',
  'count: anzahl zählen compter cantidad contar 多少 数量 几个 件数',
  'test: testen tester prueba 测试 テスト',
  'flaky: instabil 不稳定 不安定',
  'request: anfrage demande solicitud 请求 リクエスト',
  'next: nächste nächster prochain siguiente 下一个 下一 次',
  'previous: vorherige précédent anterior 上一个 前',
  'recent latest: neueste letzte récent reciente 最近 最新',
  'contact: kontakt 联系人 連絡先',
  'deal: geschäft 交易 商谈 取引',
  'company: firma unternehmen entreprise empresa 公司 企業 会社',
  'order: bestellung commande pedido 订单 注文',
  'product: produkt produit producto 产品 商品 製品',
  'report: bericht rapport informe 报告 报表 レポート',
  'summary: zusammenfassung résumé resumen 摘要 总结 要約',
  'question: frage 问题 質問',
  'answer: antwort réponse respuesta 回答 答え',
  'share: teilen partager compartir 分享 共有',
  'save store: speichern enregistrer guardar 保存 存储 保存する',
  'install: installieren installer instalar 安装 インストール',
  'deploy: bereitstellen déployer desplegar 部署 デプロイ',
  'build: bauen construire construir 构建 ビルド',
  'config settings: konfiguration einstellungen paramètres configuración 配置 设置 設定',
  'permission: berechtigung autorisation permiso 权限 権限',
  'schedule: zeitplan planifier programar 日程 安排 スケジュール',
  'reminder: erinnerung rappel recordatorio 提醒 リマインダー',
  'invite: einladen inviter invitar 邀请 招待',
  'reply: antworten répondre responder 回复 返信',
  'reaction emoji: reaktion réaction reacción 表情 反应 リアクション',
  'thread: diskussion fil hilo 帖子 线程 スレッド',
  'server: 服务器 サーバー',
  'process: prozess processus proceso 进程 プロセス',
  'stop: stoppen beenden arrêter detener 停止 终止 止める',
  'start: starten démarrer iniciar 启动 开始 開始',
  'check: prüfen überprüfen vérifier comprobar 检查 确认 確認',
  'compare: vergleichen comparer comparar 比较 比較',
  'export: exportieren exporter exportar 导出 エクスポート',
  'import: importieren importer importar 导入 インポート',
  'size: größe taille tamaño 大小 サイズ',
  'week: woche semaine semana 周 星期 週',
  'day today: heute jour aujourd hoy día 今天 日 今日',
  'chart graph: diagramm grafik schaubild graphique gráfico 图表 图 チャート グラフ',
  'line: linie ligne línea 折线 线 線',
  'card: karte carte tarjeta 卡片 カード',
  'section: abschnitt sección 部分 章节 セクション',
  'story: 故事 ストーリー',
  'iteration sprint: 迭代 冲刺 イテレーション スプリント',
  'team: mannschaft équipe equipo 团队 チーム',
  'member: mitglied membre miembro 成员 メンバー',
  'alert warning: warnung alarm alerte alerta advertencia 警报 预警 警告 アラート',
  'forecast: vorhersage prévision pronóstico 预报 予報',
  'research: recherche recherchieren investigar investigación 研究 调研 調査',
  'complete done: erledigt fertig abschließen terminer terminé completar 完成 已完成 完了',
  'mark: markieren marquer marcar 标记 マーク',
  'archive: archivieren archiver archivar 归档 アーカイブ',
  'attachment: anhang adjunto 附件 添付',
  'free available: frei verfügbar libre disponible 有空 空闲 空き',
  'data: daten données datos 数据 データ',
  'sheet: blatt tabellenblatt feuille hoja 工作表 シート',
  'code: 代码 コード',
  'notification: benachrichtigung notificación 通知',
  'ask: fragen demander preguntar 问 询问 質問',
  'current: aktuell aktuelle actuel actual 当前 目前 現在 今の',
  'draft: entwurf brouillon borrador 草稿 下書き',
  'filter: filtre filtro 过滤 筛选 フィルター',
  'version: 版本 バージョン',
  'milestone: meilenstein jalon hito 里程碑 マイルストーン',
  'workflow: arbeitsablauf 工作流 ワークフロー',
  'dashboard: 仪表板 仪表盘 ダッシュボード',
  'monitor: überwachen surveiller monitorear 监控 監視',
  'show: 見せて 見る',
  // Chinese words are often one character of these, or hold one: a word the table lacks is looked
  // up by its characters too.
  'search: 搜 查',
  'delete: 删',
  'update: 改',
  'create: 建',
  'move: 移',
  'open: 开',
  'close: 关',
  'show: 看',
  // The commands of a Unix shell, which a request names for what they do.
  'create directory: mkdir',
  'list directory: ls dir',
  'read file: cat',
  'delete: rm rmdir',
  'move: mv',
  'copy: cp',
  'search: grep rg',
  'download fetch: curl wget',
  'process list: ps',
  'terminate process: pkill',
]
  // Words that carry no meaning of their own (articles, pronouns, particles): searched for, they
  // would only add noise.
  .concat([
    ': der die das den dem des ein eine einen einem einer und oder mit für von zu im auf ist ' +
      'sind mein meine meinen alle bitte ich wir uns le la les un une du et ou pour avec dans est ' +
      'mon ma mes sur el los las una y para con en mi mis por es 的 了 一个 我 我的 我们 把 在 是 ' +
      '和 请 吗 个 所有 中 上 里 を に は が の で と から ください して する ' +
      'dem nach vom zum zur wie was wo wer ins bitte brauche kann soll habe hat ' +
      'les des au aux qui que quoi où est-ce ce cette ces qué cómo dónde cuál del al lo este esta ' +
      '哪些 什么 怎么 有 这 那 这个 那个 给 让 吧 呢 下 一下',
  ]);

// German, French and Spanish inflect a word by its ending: the table and a query's word are both
// looked up without the first of these endings that leaves at least four letters.
const ENDINGS = ['ungen', 'ung', 'en', 'er', 'es', 'e', 'n', 's', 't', 'r'];

function foreignStem(text: string): string {
  const word = fold(text);
  const ending = ENDINGS.find((each) => word.endsWith(each) && word.length - each.length >= 4);
  return ending === undefined ? word : word.slice(0, -ending.length);
}

const LATIN = /\p{Script=Latin}/u;
const ENGLISH = new Map<string, string[]>();
for (const line of TABLE) {
  const [english = '', foreign = ''] = line.split(':');
  const meaning = english.split(' ').filter((word) => word !== '');
  for (const word of foreign.split(' ').filter((each) => each !== '')) {
    ENGLISH.set(word, meaning);
    ENGLISH.set(fold(word), meaning);
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

// An inflection moves an accent ("reunión", "reuniones") and a person often types none
// ("telecharger"): words of Latin script are looked up without their accents, the table's and a
// query's alike. Other scripts keep their marks: a Japanese voiced kana is a mark on another
// letter, and another word.
function fold(word: string): string {
  return LATIN.test(word) ? word.normalize('NFD').replace(/\p{M}/gu, '') : word;
}
