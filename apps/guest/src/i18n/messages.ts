/** Every sentence of the guest app in English; other languages give the same keys. */
const en = {
  loading: 'Loading…',
  poweredBy: 'Powered by Frontdesk',
  visitWebsite: 'Back to {site}',
  welcomeTitle: 'Talk to us',
  welcomeDefault: 'Start a video or voice call with our team.',
  continue: 'Continue',
  sending: 'Sending…',
  requiredField: 'Required',
  formInvalid: 'Please check the fields marked below.',
  errorRequired: 'Please fill this in.',
  errorEmail: 'Enter an e-mail address like name@example.com.',
  errorPhone: 'Enter a phone number, digits only, with an optional + in front.',
  errorInvalid: 'Please check this answer.',
  submitFailed: 'We could not send your answers. Please try again.',
  chooseCategory: 'What can we help you with?',
  callType: 'How would you like to talk?',
  videoCall: 'Video call',
  voiceCall: 'Voice call',
  startCall: 'Start the call',
  startingCall: 'Starting the call…',
  previewTitle: 'Check your camera and microphone',
  scheduleTitle: 'We are closed right now',
  scheduleDefault:
    'Our team is not available at this time. Please come back during our opening hours.',
  timetable: 'Opening hours',
  nextOpening: 'We open again {when} (your time).',
  closedAllDay: 'Closed',
  outOfZoneTitle: 'Not available in your area',
  outOfZoneDefault: 'Our service is not available where you are.',
  serviceArea: 'We serve: {area}',
  unsupportedTitle: 'This browser cannot make calls',
  unsupported_noWebRTC:
    'Please open this page in a recent version of Chrome, Firefox, Safari or Edge.',
  unsupported_disabledCamera:
    'We could not use your camera or microphone. Allow access in your browser settings, then try again.',
  unsupported_offline: 'You seem to be offline. Check your connection, then try again.',
  inactiveTitle: 'Calls are not available',
  inactiveBody: 'This service is currently switched off. Please try again later.',
  outOfQuotaTitle: 'We cannot take more calls this month',
  outOfQuotaBody: 'Please contact us another way, or try again next month.',
  blockedTitle: 'Calls are not available',
  blockedBody: 'This browser cannot start calls with this company.',
  botTitle: 'We could not verify your browser',
  botBody: 'Calls are only available to people using a regular browser.',
  failedTitle: 'Something went wrong',
  failed_unreachable: 'We could not reach our service. Check your connection and try again.',
  failed_notFound: 'This page does not belong to any company we know. Check the link you followed.',
  failed_unavailable: 'Our service is not answering right now. Please try again in a moment.',
  abandonedTitle: 'You left the queue',
  abandonedBody: 'Your call was cancelled before an agent answered.',
  tryAgain: 'Try again',
  weekday1: 'Monday',
  weekday2: 'Tuesday',
  weekday3: 'Wednesday',
  weekday4: 'Thursday',
  weekday5: 'Friday',
  weekday6: 'Saturday',
  weekday7: 'Sunday',
};

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

const ar: Messages = {
  loading: 'جارٍ التحميل…',
  poweredBy: 'بدعم من Frontdesk',
  visitWebsite: 'العودة إلى {site}',
  welcomeTitle: 'تحدث إلينا',
  welcomeDefault: 'ابدأ مكالمة فيديو أو مكالمة صوتية مع فريقنا.',
  continue: 'متابعة',
  sending: 'جارٍ الإرسال…',
  requiredField: 'مطلوب',
  formInvalid: 'يرجى مراجعة الحقول المشار إليها أدناه.',
  errorRequired: 'يرجى ملء هذا الحقل.',
  errorEmail: 'أدخل بريدًا إلكترونيًا مثل name@example.com.',
  errorPhone: 'أدخل رقم هاتف بالأرقام فقط، مع + اختيارية في البداية.',
  errorInvalid: 'يرجى مراجعة هذه الإجابة.',
  submitFailed: 'تعذّر إرسال إجاباتك. يرجى المحاولة مجددًا.',
  chooseCategory: 'كيف يمكننا مساعدتك؟',
  callType: 'كيف تفضّل التحدث؟',
  videoCall: 'مكالمة فيديو',
  voiceCall: 'مكالمة صوتية',
  startCall: 'ابدأ المكالمة',
  startingCall: 'جارٍ بدء المكالمة…',
  previewTitle: 'تحقق من الكاميرا والميكروفون',
  scheduleTitle: 'نحن مغلقون الآن',
  scheduleDefault: 'فريقنا غير متاح في هذا الوقت. يرجى العودة خلال ساعات العمل.',
  timetable: 'ساعات العمل',
  nextOpening: 'نفتح مجددًا {when} (بتوقيتك).',
  closedAllDay: 'مغلق',
  outOfZoneTitle: 'الخدمة غير متاحة في منطقتك',
  outOfZoneDefault: 'خدمتنا غير متاحة في موقعك.',
  serviceArea: 'نخدم: {area}',
  unsupportedTitle: 'لا يمكن لهذا المتصفح إجراء المكالمات',
  unsupported_noWebRTC: 'يرجى فتح هذه الصفحة في إصدار حديث من Chrome أو Firefox أو Safari أو Edge.',
  unsupported_disabledCamera:
    'تعذّر استخدام الكاميرا أو الميكروفون. اسمح بالوصول من إعدادات المتصفح ثم حاول مجددًا.',
  unsupported_offline: 'يبدو أنك غير متصل بالإنترنت. تحقق من اتصالك ثم حاول مجددًا.',
  inactiveTitle: 'المكالمات غير متاحة',
  inactiveBody: 'هذه الخدمة متوقفة حاليًا. يرجى المحاولة لاحقًا.',
  outOfQuotaTitle: 'لا يمكننا استقبال مزيد من المكالمات هذا الشهر',
  outOfQuotaBody: 'يرجى التواصل معنا بطريقة أخرى أو المحاولة الشهر القادم.',
  blockedTitle: 'المكالمات غير متاحة',
  blockedBody: 'لا يمكن لهذا المتصفح بدء مكالمات مع هذه الشركة.',
  botTitle: 'تعذّر التحقق من متصفحك',
  botBody: 'المكالمات متاحة فقط لمن يستخدمون متصفحًا عاديًا.',
  failedTitle: 'حدث خطأ ما',
  failed_unreachable: 'تعذّر الوصول إلى خدمتنا. تحقق من اتصالك ثم حاول مجددًا.',
  failed_notFound: 'هذه الصفحة لا تتبع أي شركة نعرفها. تحقق من الرابط الذي اتبعته.',
  failed_unavailable: 'خدمتنا لا تستجيب الآن. يرجى المحاولة بعد قليل.',
  abandonedTitle: 'لقد غادرت قائمة الانتظار',
  abandonedBody: 'أُلغيت مكالمتك قبل أن يرد أحد الموظفين.',
  tryAgain: 'حاول مجددًا',
  weekday1: 'الاثنين',
  weekday2: 'الثلاثاء',
  weekday3: 'الأربعاء',
  weekday4: 'الخميس',
  weekday5: 'الجمعة',
  weekday6: 'السبت',
  weekday7: 'الأحد',
};

const catalogues = { en, ar } as const;
export type Language = keyof typeof catalogues;

/** The supported language closest to a BCP 47 tag (`ar-EG` → `ar`); English otherwise. */
export function languageOf(tag: string): Language {
  const base = tag.toLowerCase().split('-')[0];
  return base === 'ar' ? 'ar' : 'en';
}

/** Looks up a sentence and fills its `{name}` slots. */
export function translate(
  language: Language,
  key: MessageKey,
  values: Record<string, string> = {},
): string {
  return catalogues[language][key].replace(
    /\{(\w+)\}/g,
    (slot, name: string) => values[name] ?? slot,
  );
}
